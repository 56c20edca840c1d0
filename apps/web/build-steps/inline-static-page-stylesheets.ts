import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** How React Router writes a route's stylesheet into a prerendered page's head. */
const builtStylesheetLink = /<link rel="stylesheet" href="(\/assets\/[A-Za-z0-9._-]+\.css)"\/>/g;

/**
 * A prerendered page is static (the content pages, /contact, the viewer's pages: decision 0046) when React's scripts are
 * not in it; the SPA fallback and every other page of the app carry React Router's context script.
 */
export function isStaticPageHtml(html: string): boolean {
  return !html.includes("__reactRouterContext");
}

/**
 * The page with each of its built stylesheets' links replaced by a `<style>` holding the stylesheet's text, in the
 * same place, so the rules apply in the same order. A stylesheet `readStylesheet` does not know stays a link.
 *
 * @example
 * inlineStylesheetsOfPage('<link rel="stylesheet" href="/assets/root-1.css"/>', () => "body{margin:0}"); // "<style>body{margin:0}</style>"
 */
export function inlineStylesheetsOfPage(html: string, readStylesheet: (href: string) => string | undefined): string {
  return html.replace(builtStylesheetLink, (link, href: string) => {
    const stylesheet = readStylesheet(href);
    if (stylesheet === undefined) return link;
    // The HTML parser ends a <style> at the first "</style", whatever the CSS around it; and a relative url() would
    // resolve against the page instead of /assets/. Neither happens in our CSS: a build that brings one stops here.
    if (/<\/style/i.test(stylesheet)) throw new Error(`${href} contains "</style", which cannot be inlined in a <style> element.`);
    if (/url\(\s*["']?(?![a-z]+:|\/|#)/i.test(stylesheet)) throw new Error(`${href} has a relative url(), which would resolve against the page once inlined.`);
    return `<style>${stylesheet.trimEnd()}</style>`;
  });
}

async function listHtmlFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(".html")).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Inlines the stylesheets of every static page under the client build directory (after the prerender): such a page
 * then paints with no request after its own, which on a phone's first visit is a connection and a round trip less
 * before the first paint (decision 0046). The app's pages keep their links, cached once for every screen of the app.
 * Answers how many pages changed.
 */
export async function inlineStaticPageStylesheets(clientDirectory: string): Promise<{ pagesInlined: number }> {
  const stylesheets = new Map<string, string>();
  const readStylesheet = (href: string) => stylesheets.get(href);
  const assetsDirectory = path.join(clientDirectory, "assets");
  for (const name of await readdir(assetsDirectory)) {
    if (name.endsWith(".css")) stylesheets.set(`/assets/${name}`, await readFile(path.join(assetsDirectory, name), "utf8"));
  }
  let pagesInlined = 0;
  for (const file of await listHtmlFiles(clientDirectory)) {
    const html = await readFile(file, "utf8");
    if (!isStaticPageHtml(html)) continue;
    const inlined = inlineStylesheetsOfPage(html, readStylesheet);
    if (inlined === html) continue;
    await writeFile(file, inlined);
    pagesInlined += 1;
  }
  return { pagesInlined };
}
