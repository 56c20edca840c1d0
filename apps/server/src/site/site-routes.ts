import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { Hono, type Context } from "hono";
import { HttpError } from "../http/http-errors.ts";
import { escapeHtml } from "../http/escape-html.ts";
import { findInlineScriptHashes } from "../security/inline-script-hashes.ts";
import type { SecurityHeadersVariables } from "../security/security-headers.ts";
import { readBuildIndex, type BuildIndex } from "./build-index.ts";
import { getContentType } from "./content-types.ts";

/**
 * Routes that exist only in the browser (no prerendered page): they get `__spa-fallback.html`. The web build lists its
 * own in `__client-only-routes.json` (decision 0060); these wider patterns serve a build that does not.
 * `/x/*` matches `/x` and everything below it; `:name` matches any one segment; other segments match exactly.
 * Matching is case-sensitive.
 */
export const defaultClientOnlyRoutePatterns: readonly string[] = [
  "/dashboard",
  "/dashboard/*",
  "/account/*",
  "/calculator",
  "/settings/*",
  "/study/*",
  "/upload-subtitles",
  "/pricing",
  "/checkout-session",
  "/checkout-success",
  "/stripe-portal-session",
  "/billing/*",
];

export const immutableCacheControl = "public, max-age=31536000, immutable";
export const htmlCacheControl = "no-cache";
export const shortCacheControl = "public, max-age=3600";

const notFoundPagePath = "__not-found/index.html";
const spaFallbackPagePath = "__spa-fallback.html";
const fingerprintedFolders = ["assets/", "images/"];

export type SiteRoutesOptions = {
  webBuildDirectory: string;
  clientOnlyRoutePatterns?: readonly string[];
  /** In development the build is re-listed at most once a second, so a rebuild shows without a restart. */
  rereadBuild: boolean;
  /** Replaces `publicOriginPlaceholder` in every page, so og:url, canonical links and JSON-LD name this host. */
  publicOrigin?: string;
};

/** What apps/web's prerender writes where the public origin belongs (its `PUBLIC_ORIGIN_PLACEHOLDER`). */
export const publicOriginPlaceholder = "https://public-origin.atelier.invalid";

type HtmlPage = { html: string; inlineScriptHashes: string[] };

/**
 * Serves the prerendered React Router build: files, prerendered pages, the SPA fallback for client-only routes, and the 404 page.
 *
 * @example
 * app.route("/", createSiteRoutes({ webBuildDirectory: "/srv/web/build/client", rereadBuild: false }));
 */
export function createSiteRoutes(options: SiteRoutesOptions): Hono<{ Variables: SecurityHeadersVariables }> {
  let buildIndex: BuildIndex | null = null;
  let buildIndexReadAt = 0;
  let htmlPages = new Map<string, HtmlPage>();

  async function getBuildIndex(): Promise<BuildIndex> {
    const isStale = buildIndex === null || buildIndex.status === "missing" || (options.rereadBuild && Date.now() - buildIndexReadAt > 1_000);
    if (isStale) {
      buildIndex = await readBuildIndex(options.webBuildDirectory);
      buildIndexReadAt = Date.now();
      htmlPages = new Map();
    }
    return buildIndex as BuildIndex;
  }

  async function readHtmlPage(relativePath: string): Promise<HtmlPage> {
    const cached = htmlPages.get(relativePath);
    if (cached) {
      return cached;
    }
    const builtHtml = await fs.readFile(path.join(options.webBuildDirectory, relativePath), "utf8");
    const html = options.publicOrigin ? builtHtml.replaceAll(publicOriginPlaceholder, options.publicOrigin) : builtHtml;
    const page = { html, inlineScriptHashes: findInlineScriptHashes(html) };
    htmlPages.set(relativePath, page);
    return page;
  }

  async function respondWithHtmlPage(c: Context<{ Variables: SecurityHeadersVariables }>, relativePath: string, status: 200 | 404): Promise<Response> {
    const page = await readHtmlPage(relativePath);
    c.set("inlineScriptHashes", page.inlineScriptHashes);
    const headers = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": htmlCacheControl };
    return c.req.method === "HEAD" ? c.body(null, status, headers) : c.body(page.html, status, headers);
  }

  async function respondWithFile(c: Context<{ Variables: SecurityHeadersVariables }>, relativePath: string): Promise<Response> {
    if (relativePath.endsWith(".html")) {
      return respondWithHtmlPage(c, relativePath, 200);
    }
    const filePath = path.join(options.webBuildDirectory, relativePath);
    const { size } = await fs.stat(filePath);
    const headers = {
      "Content-Type": getContentType(relativePath),
      "Content-Length": String(size),
      "Cache-Control": fingerprintedFolders.some((folder) => relativePath.startsWith(folder)) ? immutableCacheControl : shortCacheControl,
    };
    if (c.req.method === "HEAD") {
      return c.body(null, 200, headers);
    }
    return c.body(Readable.toWeb(createReadStream(filePath)) as ReadableStream<Uint8Array>, 200, headers);
  }

  const routes = new Hono<{ Variables: SecurityHeadersVariables }>();
  routes.get("*", async (c) => {
    const requestUrl = new URL(c.req.url);
    const requestPath = decodeRequestPath(requestUrl.pathname);
    const index = await getBuildIndex();
    if (index.status === "missing") {
      return c.html(renderBuildMissingPage(options.webBuildDirectory), 503, { "Cache-Control": "no-store" });
    }
    const relativePath = requestPath.slice(1);
    if (relativePath !== "" && index.files.has(relativePath)) {
      return respondWithFile(c, relativePath);
    }
    const pageFolder = relativePath.replace(/\/+$/, "");
    const pagePath = pageFolder === "" ? "index.html" : `${pageFolder}/index.html`;
    const servedPagePath = index.files.has(pagePath)
      ? pagePath
      : matchesClientOnlyRoute(`/${pageFolder}`, options.clientOnlyRoutePatterns ?? index.clientOnlyRoutePatterns ?? defaultClientOnlyRoutePatterns) && index.files.has(spaFallbackPagePath)
        ? spaFallbackPagePath
        : undefined;
    if (servedPagePath !== undefined) {
      const canonicalPath = canonicalPagePath(requestUrl.pathname);
      if (canonicalPath !== requestUrl.pathname) {
        // One address per page: `/about/` and `//about` would otherwise be indexed and shared beside `/about`.
        c.header("Cache-Control", shortCacheControl);
        return c.redirect(`${canonicalPath}${requestUrl.search}`, 301);
      }
      return respondWithHtmlPage(c, servedPagePath, 200);
    }
    const nearestNotFoundPage = findNearestNotFoundPage(pageFolder, index.files);
    if (nearestNotFoundPage) {
      return respondWithHtmlPage(c, nearestNotFoundPage, 404);
    }
    return c.html(builtInNotFoundPage, 404, { "Cache-Control": htmlCacheControl });
  });
  return routes;
}

/** A first segment that stands for any: `__any/image/__not-found` is the viewer's not-found page for every painting. */
export const anyFirstSegment = "__any";

/**
 * The not-found page for the path: the one prerendered in its parent folder, where a section has its own screen that
 * hydrates into the same route (`/a/image/9` → `a/image/__not-found/index.html`, then `__any/image/__not-found/index.html`
 * for a painting that does not exist), else the site's `__not-found/index.html`. Only the parent folder counts: a
 * deeper path matches no route of that section, so its page would not hydrate.
 */
export function findNearestNotFoundPage(pageFolder: string, files: ReadonlySet<string>): string | undefined {
  const segments = pageFolder.split("/").filter(Boolean);
  const parent = segments.slice(0, -1);
  const candidates = parent.length > 0 ? [[...parent, notFoundPagePath], [anyFirstSegment, ...parent.slice(1), notFoundPagePath]] : [];
  candidates.push([notFoundPagePath]);
  return candidates.map((candidate) => candidate.join("/")).find((candidate) => files.has(candidate));
}

/**
 * A page's address as its links and canonical link write it: no repeated slash, no trailing slash but the home page's.
 * Works on the still-encoded path, so the redirect's `Location` keeps every escape and can never begin with `//`.
 *
 * @example
 * canonicalPagePath("//paintings/"); // "/paintings"
 */
export function canonicalPagePath(rawPath: string): string {
  const collapsed = rawPath.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 ? collapsed.replace(/\/$/, "") : collapsed;
}

/** Decodes the URL path and refuses anything that could name a file outside the build. */
function decodeRequestPath(rawPath: string): string {
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(rawPath);
  } catch (error) {
    throw new HttpError(400, "The address is not correctly encoded.", { cause: error });
  }
  const segments = decodedPath.split("/");
  if (decodedPath.includes("\0") || decodedPath.includes("\\") || segments.some((segment) => segment === ".." || segment === ".")) {
    throw new HttpError(400, "The address contains a path that is not allowed.");
  }
  return decodedPath.replace(/\/{2,}/g, "/");
}

/**
 * Whether a path (without trailing slash) belongs to a client-only route.
 *
 * @example
 * matchesClientOnlyRoute("/study/3/session", ["/study/*"]); // true
 * matchesClientOnlyRoute("/study/3/session", ["/study/:groupId/session"]); // true
 * matchesClientOnlyRoute("/study", ["/study/:groupId/session"]); // false
 */
export function matchesClientOnlyRoute(requestPath: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    if (pattern.endsWith("/*")) {
      const prefix = pattern.slice(0, -2);
      return requestPath === prefix || requestPath.startsWith(`${prefix}/`);
    }
    if (!pattern.includes("/:")) return requestPath === pattern;
    const patternSegments = pattern.split("/");
    const pathSegments = requestPath.split("/");
    return patternSegments.length === pathSegments.length && patternSegments.every((segment, index) => (segment.startsWith(":") ? pathSegments[index] !== "" : segment === pathSegments[index]));
  });
}

const builtInNotFoundPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head>
<body><h1>Page not found</h1><p>This page does not exist. <a href="/">Go to the home page</a>.</p></body></html>`;

function renderBuildMissingPage(webBuildDirectory: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>The web app is not built</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto">
<h1>The web app is not built yet</h1>
<p>The server found no build in <code>${escapeHtml(webBuildDirectory)}</code>.</p>
<p>Run <code>pnpm --filter @atelier/web build</code>, or <code>pnpm start</code> from the repository root, which builds first. The API answers meanwhile.</p>
</body></html>`;
}
