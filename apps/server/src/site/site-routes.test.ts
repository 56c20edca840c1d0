import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfiguration } from "../config.ts";
import { createServer } from "../create-server.ts";
import { clientOnlyRoutesFileName, readBuildIndex } from "./build-index.ts";
import { publicOriginPlaceholder } from "./site-routes.ts";
import { openTestDatabase, type TestDatabase } from "../database/test-databases.ts";

const inlineScript = 'window.__reactRouterContext = {"basename":"/"};';
const pageHtml = (title: string) => `<!doctype html><html><head><title>${title}</title><script type="module" src="/assets/entry-abc123.js"></script></head><body><script>${inlineScript}</script></body></html>`;

let fixtureDirectory: string;
let buildDirectory: string;
let testDatabase: TestDatabase;

function writeFixtureFile(relativePath: string, content: string) {
  const filePath = path.join(buildDirectory, relativePath);
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  fs.writeFileSync(filePath, content);
}

function createTestApp(options: { webBuildDirectory?: string; publicOrigin?: string } = {}) {
  const configuration = loadConfiguration({ NODE_ENV: "test", WEB_BUILD_DIR: options.webBuildDirectory ?? buildDirectory, PUBLIC_ORIGIN: options.publicOrigin ?? "" });
  return createServer({ configuration, database: testDatabase.database });
}

beforeAll(async () => {
  fixtureDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-site-test-"));
  buildDirectory = path.join(fixtureDirectory, "client");
  fs.writeFileSync(path.join(fixtureDirectory, "secret.txt"), "outside the build");
  writeFixtureFile("index.html", pageHtml("Gallery"));
  writeFixtureFile("paintings/index.html", pageHtml("Paintings"));
  writeFixtureFile(
    "about/index.html",
    `<!doctype html><html><head><meta property="og:url" content="${publicOriginPlaceholder}/about"/><script type="application/ld+json">{"url":"${publicOriginPlaceholder}/about"}</script><script>window.x=1</script></head><body>About</body></html>`,
  );
  writeFixtureFile("Licence/index.html", pageHtml("Licence"));
  writeFixtureFile("footprints-in-the-sand/index.html", pageHtml("Footprints in the sand"));
  writeFixtureFile("footprints-in-the-sand/image/1/index.html", pageHtml("Viewer"));
  writeFixtureFile("__not-found/index.html", pageHtml("Page not found"));
  writeFixtureFile("footprints-in-the-sand/image/__not-found/index.html", pageHtml("Image not found"));
  writeFixtureFile("__any/image/__not-found/index.html", pageHtml("No such painting's image"));
  writeFixtureFile("__spa-fallback.html", pageHtml("Loading"));
  writeFixtureFile("assets/entry-abc123.js", "console.log('entry');".repeat(100));
  writeFixtureFile("images/paintings/bridge-1a2b3c.webp", "RIFF....WEBP");
  writeFixtureFile("favicon.ico", "icon");
  testDatabase = await openTestDatabase("sqlite");
});

afterAll(async () => {
  await testDatabase.destroy();
  fs.rmSync(fixtureDirectory, { recursive: true, force: true });
});

describe("given a prerendered web build", () => {
  it.each(["/", "/paintings", "/footprints-in-the-sand", "/footprints-in-the-sand/image/1", "/Licence"])("should serve the prerendered page %s with 200 and no-cache", async (pagePath) => {
    const response = await createTestApp().request(pagePath);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
  });

  it.each([
    ["/paintings/", "/paintings"],
    ["//paintings", "/paintings"],
    ["/footprints-in-the-sand//image///1/", "/footprints-in-the-sand/image/1"],
    ["//", "/"],
    ["/paintings/?sort=year&x=%2F%2Fevil.example", "/paintings?sort=year&x=%2F%2Fevil.example"],
  ])("should send %s to the page's one address %s with 301", async (variantPath, canonicalPath) => {
    for (const method of ["GET", "HEAD"]) {
      const response = await createTestApp().request(variantPath, { method });
      expect(response.status).toBe(301);
      expect(response.headers.get("Location")).toBe(canonicalPath);
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    }
  });

  it("should keep a redirect on this origin however the path is encoded", async () => {
    const response = await createTestApp().request("//%2Fevil.example/");
    expect(response.status).toBe(404);
    expect(response.headers.get("Location")).toBeNull();
  });

  it("should not redirect a path that no page serves", async () => {
    const response = await createTestApp().request("/no-such-page/");
    expect(response.status).toBe(404);
    expect(response.headers.get("Location")).toBeNull();
  });

  it("should serve the page that belongs to the path", async () => {
    expect(await (await createTestApp().request("/paintings")).text()).toContain("<title>Paintings</title>");
  });

  it("should allow the page's inline script by its SHA-256 hash in the Content-Security-Policy", async () => {
    const response = await createTestApp().request("/paintings");
    const expectedHash = createHash("sha256").update(inlineScript).digest("base64");
    expect(response.headers.get("Content-Security-Policy")).toContain(`script-src 'self' 'sha256-${expectedHash}'`);
  });

  it("should answer unknown paths with the not-found page and status 404", async () => {
    const response = await createTestApp().request("/no-such-painting");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("<title>Page not found</title>");
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
  });

  it("should answer an unknown image of a known painting with the viewer's own not-found page and status 404", async () => {
    const response = await createTestApp().request("/footprints-in-the-sand/image/42");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("<title>Image not found</title>");
  });

  it("should answer an image of an unknown painting with the viewer's not-found page for any painting", async () => {
    const response = await createTestApp().request("/no-such-painting/image/1");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("<title>No such painting's image</title>");
  });

  it("should answer a path deeper than any viewer route with the site's not-found page", async () => {
    for (const path of ["/footprints-in-the-sand/image/42/more", "/no-such-painting/image/1/more", "/a/b/image/c"]) {
      const response = await createTestApp().request(path);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("<title>Page not found</title>");
    }
  });

  it("should put the server's public origin where the build left the placeholder, in meta tags and JSON-LD alike", async () => {
    const response = await createTestApp({ publicOrigin: "http://atelier.localhost:8080" }).request("/about");
    const html = await response.text();
    expect(html).toContain('<meta property="og:url" content="http://atelier.localhost:8080/about"/>');
    expect(html).toContain('{"url":"http://atelier.localhost:8080/about"}');
    expect(html).not.toContain(publicOriginPlaceholder);
  });

  it("should match paths case-sensitively", async () => {
    expect((await createTestApp().request("/Licence")).status).toBe(200);
    expect((await createTestApp().request("/licence")).status).toBe(404);
  });

  it("should serve the SPA fallback for client-only routes", async () => {
    for (const clientOnlyPath of ["/dashboard", "/study/7/session", "/account/email", "/upload-subtitles"]) {
      const response = await createTestApp().request(clientOnlyPath);
      expect(response.status, clientOnlyPath).toBe(200);
      expect(await response.text()).toContain("<title>Loading</title>");
    }
  });

  it("should cache hashed assets and painting images for a year as immutable", async () => {
    const app = createTestApp();
    const script = await app.request("/assets/entry-abc123.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const image = await app.request("/images/paintings/bridge-1a2b3c.webp");
    expect(image.headers.get("Content-Type")).toBe("image/webp");
    expect(image.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(await image.text()).toBe("RIFF....WEBP");
  });

  it("should cache other files briefly", async () => {
    const response = await createTestApp().request("/favicon.ico");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
  });

  it("should compress text assets for clients that accept gzip", async () => {
    const response = await createTestApp().request("/assets/entry-abc123.js", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
  });

  it("should answer HEAD requests without a body", async () => {
    const response = await createTestApp().request("/assets/entry-abc123.js", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });

  it.each(["/..%2fsecret.txt", "/assets/..%2f..%2fsecret.txt", "/%2e%2e/secret.txt", "/assets/%5c..%5c..%5csecret.txt", "/../secret.txt"])("should never serve a file outside the build for %s", async (traversalPath) => {
    const response = await createTestApp().request(traversalPath);
    expect([400, 404]).toContain(response.status);
    expect(await response.text()).not.toContain("outside the build");
  });

  it("should refuse an encoded parent folder with 400", async () => {
    const response = await createTestApp().request("/assets/..%2f..%2fsecret.txt");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "The address contains a path that is not allowed." });
  });

  it("should set the security headers on pages", async () => {
    const response = await createTestApp().request("/");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("Cross-Origin-Opener-Policy")).toBe("same-origin");
    expect(response.headers.get("Permissions-Policy")).toContain("camera=()");
    expect(response.headers.get("Strict-Transport-Security")).toBeNull();
  });
});

describe("given a build that lists its client-only routes", () => {
  let listingBuildDirectory: string;
  beforeAll(() => {
    listingBuildDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-listing-build-"));
    fs.writeFileSync(path.join(listingBuildDirectory, "__spa-fallback.html"), pageHtml("Loading"));
    fs.mkdirSync(path.join(listingBuildDirectory, "__not-found"));
    fs.writeFileSync(path.join(listingBuildDirectory, "__not-found", "index.html"), pageHtml("Page not found"));
    fs.writeFileSync(path.join(listingBuildDirectory, clientOnlyRoutesFileName), JSON.stringify({ patterns: ["/dashboard", "/account/login", "/study/:groupId/config"] }));
  });
  afterAll(() => fs.rmSync(listingBuildDirectory, { recursive: true, force: true }));

  it.each(["/dashboard", "/account/login", "/study/7/config", "/study/%C3%A5/config"])("should serve the SPA fallback for %s", async (clientOnlyPath) => {
    const response = await createTestApp({ webBuildDirectory: listingBuildDirectory }).request(clientOnlyPath);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<title>Loading</title>");
  });

  it("should send a client-only screen's address with a trailing slash to the address without it", async () => {
    const response = await createTestApp({ webBuildDirectory: listingBuildDirectory }).request("/study/%C3%A5/config/?next=1");
    expect(response.status).toBe(301);
    expect(response.headers.get("Location")).toBe("/study/%C3%A5/config?next=1");
  });

  it.each(["/study", "/study/7", "/study//config", "/study/7/config/more", "/account/no-such-screen", "/settings/profile", "/billing", "/Dashboard"])("should answer %s, which no screen serves, with the not-found page and 404", async (unknownPath) => {
    const response = await createTestApp({ webBuildDirectory: listingBuildDirectory }).request(unknownPath);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("<title>Page not found</title>");
  });

  it.each(["{not json", JSON.stringify({ patterns: ["dashboard"] })])("should refuse a broken list %s with an error that names its file", async (brokenList) => {
    const brokenBuildDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-broken-list-build-"));
    try {
      fs.writeFileSync(path.join(brokenBuildDirectory, clientOnlyRoutesFileName), brokenList);
      await expect(readBuildIndex(brokenBuildDirectory)).rejects.toThrow(path.join(brokenBuildDirectory, clientOnlyRoutesFileName));
    } finally {
      fs.rmSync(brokenBuildDirectory, { recursive: true, force: true });
    }
  });

  it("should not serve the list itself", async () => {
    expect((await createTestApp({ webBuildDirectory: listingBuildDirectory }).request(`/${clientOnlyRoutesFileName}`)).status).toBe(404);
  });
});

describe("given a build without a not-found page", () => {
  it("should answer unknown paths with the built-in 404 page", async () => {
    const bareBuildDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-bare-build-"));
    fs.writeFileSync(path.join(bareBuildDirectory, "index.html"), "<p>home</p>");
    const response = await createTestApp({ webBuildDirectory: bareBuildDirectory }).request("/missing");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found");
    fs.rmSync(bareBuildDirectory, { recursive: true, force: true });
  });
});

describe("given no web build", () => {
  it("should answer 503 with a page that tells the developer to build", async () => {
    const response = await createTestApp({ webBuildDirectory: path.join(os.tmpdir(), "atelier-build-that-does-not-exist") }).request("/paintings");
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("pnpm --filter @atelier/web build");
  });
});
