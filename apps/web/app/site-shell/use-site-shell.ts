import { createContext, useContext } from "react";
import { useMatches } from "react-router";

/**
 * How a page is served: `static` pages (the portfolio's content pages) are prerendered without React's scripts and
 * run `@atelier/site-shell`'s page script instead; every other page is the app. Only the prerender (no document) makes static HTML: in
 * the browser, a content page reached by a link inside the app is rendered by the app as before.
 */
export type SiteShell = "static" | "app";

/**
 * The script a static page runs: the content pages' site shell (`@atelier/site-shell`), the viewer's own instead
 * (decision 0037), or for /contact the contact form's script before the site shell (decision 0038).
 */
export type StaticPageScript = "site-shell" | "image-viewer" | "contact";

/** A route module opts in with `export const handle = staticShellHandle`. */
export const staticShellHandle = { shell: "static" } as const;

/** The full-screen viewer's pages: static too, with the viewer's script and no header to wire. */
export const imageViewerShellHandle = { shell: "static", script: "image-viewer" } as const;

/** /contact: static too, with the form's own script beside the header's. */
export const contactShellHandle = { shell: "static", script: "contact" } as const;

function leafHandle(matches: readonly { handle?: unknown }[]): { shell?: unknown; script?: unknown } | undefined {
  return matches[matches.length - 1]?.handle as { shell?: unknown; script?: unknown } | undefined;
}

export function isStaticShellMatch(matches: readonly { handle?: unknown }[]): boolean {
  return leafHandle(matches)?.shell === "static";
}

export function staticPageScriptOfMatches(matches: readonly { handle?: unknown }[]): StaticPageScript {
  const script = leafHandle(matches)?.script;
  return script === "image-viewer" || script === "contact" ? script : "site-shell";
}

/**
 * The root component's decision for this render. It reads the route matches, so only the root component (rendered
 * with its routes) may call it: the SPA fallback renders the root's HydrateFallback for every path instead, and must
 * stay the app.
 */
export function useMatchedSiteShell(): SiteShell {
  const matches = useMatches();
  return typeof document === "undefined" && isStaticShellMatch(matches) ? "static" : "app";
}

/** What the root component decided, for components inside it (the header's account entry). */
export const SiteShellContext = createContext<SiteShell>("app");

export function useSiteShell(): SiteShell {
  return useContext(SiteShellContext);
}

/**
 * Handed down by the document's Layout and set by the root component during the same server render, so that the
 * Layout's scripts (rendered after the page) follow the page's decision.
 */
export type SiteShellDecision = { shell: SiteShell };
export const SiteShellDecisionContext = createContext<SiteShellDecision>({ shell: "app" });
