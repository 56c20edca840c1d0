import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inlineStaticPageStylesheets, inlineStylesheetsOfPage, isStaticPageHtml } from "./inline-static-page-stylesheets.ts";

const rootStylesheet = ":root{--ink:#222}body{color:var(--ink)}\n";
const viewerStylesheet = ".viewer{inset:0}\n";
const staticPage = `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><link rel="icon" href="/favicon.svg" type="image/svg+xml"/><link rel="stylesheet" href="/assets/root-AbC1.css"/><link rel="stylesheet" href="/assets/image-viewer-D8_7.css"/></head><body><main>Paintings</main><script type="module" src="/assets/site-shell-X.js" data-site-shell=""></script></body></html>`;
const appPage = `<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/assets/root-AbC1.css"/></head><body><script>window.__reactRouterContext = {};</script></body></html>`;

const temporaryDirectories: string[] = [];
afterEach(async () => {
  await Promise.all(temporaryDirectories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function writeClientBuild(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "atelier-inline-css-"));
  temporaryDirectories.push(directory);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(directory, name)), { recursive: true });
    await writeFile(path.join(directory, name), text);
  }
  return directory;
}

describe("given a prerendered page", () => {
  it("should call a page without React Router's context static, and the SPA fallback not", () => {
    expect(isStaticPageHtml(staticPage)).toBe(true);
    expect(isStaticPageHtml(appPage)).toBe(false);
  });

  it("should put each known stylesheet's text where its link was, in the same order", () => {
    const stylesheets = new Map([
      ["/assets/root-AbC1.css", rootStylesheet],
      ["/assets/image-viewer-D8_7.css", viewerStylesheet],
    ]);
    const inlined = inlineStylesheetsOfPage(staticPage, (href) => stylesheets.get(href));
    expect(inlined).toContain(`<link rel="icon" href="/favicon.svg" type="image/svg+xml"/><style>:root{--ink:#222}body{color:var(--ink)}</style><style>.viewer{inset:0}</style></head>`);
    expect(inlined).not.toContain('rel="stylesheet"');
    expect(inlined).toContain('<script type="module" src="/assets/site-shell-X.js" data-site-shell=""></script>');
  });

  it("should leave the link of a stylesheet it does not know", () => {
    const inlined = inlineStylesheetsOfPage(staticPage, (href) => (href === "/assets/root-AbC1.css" ? rootStylesheet : undefined));
    expect(inlined).toContain('<link rel="stylesheet" href="/assets/image-viewer-D8_7.css"/>');
    expect(inlined).not.toContain('href="/assets/root-AbC1.css"');
  });

  it("should refuse a stylesheet that would end its <style> early or resolve its url() against the page", () => {
    expect(() => inlineStylesheetsOfPage(staticPage, () => "a::after{content:'</STYLE>'}")).toThrow('/assets/root-AbC1.css contains "</style"');
    expect(() => inlineStylesheetsOfPage(staticPage, () => "a{background:url( 'paper.webp')}")).toThrow("relative url()");
    expect(inlineStylesheetsOfPage(staticPage, () => "a{background:url(/assets/paper.webp)}b{mask:url(data:image/svg+xml;utf8,x)}")).toContain("url(/assets/paper.webp)");
  });
});

describe("given a client build with static pages and the app's fallback", () => {
  it("should inline the stylesheets of the static pages only, and leave the stylesheet files", async () => {
    const directory = await writeClientBuild({
      "assets/root-AbC1.css": rootStylesheet,
      "assets/image-viewer-D8_7.css": viewerStylesheet,
      "index.html": staticPage,
      "the-face-i-dont-show/image/3/index.html": staticPage,
      "__spa-fallback.html": appPage,
    });

    await expect(inlineStaticPageStylesheets(directory)).resolves.toEqual({ pagesInlined: 2 });

    for (const page of ["index.html", "the-face-i-dont-show/image/3/index.html"]) {
      const html = await readFile(path.join(directory, page), "utf8");
      expect(html).toContain("<style>:root{--ink:#222}body{color:var(--ink)}</style><style>.viewer{inset:0}</style>");
      expect(html).not.toContain('rel="stylesheet"');
    }
    await expect(readFile(path.join(directory, "__spa-fallback.html"), "utf8")).resolves.toBe(appPage);
    await expect(readFile(path.join(directory, "assets/root-AbC1.css"), "utf8")).resolves.toBe(rootStylesheet);
  });

  it("should change nothing the second time", async () => {
    const directory = await writeClientBuild({ "assets/root-AbC1.css": rootStylesheet, "assets/image-viewer-D8_7.css": viewerStylesheet, "index.html": staticPage });
    await inlineStaticPageStylesheets(directory);
    const once = await readFile(path.join(directory, "index.html"), "utf8");
    await expect(inlineStaticPageStylesheets(directory)).resolves.toEqual({ pagesInlined: 0 });
    await expect(readFile(path.join(directory, "index.html"), "utf8")).resolves.toBe(once);
  });
});
