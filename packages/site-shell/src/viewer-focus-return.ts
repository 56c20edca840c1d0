import { readStorage, type SiteShellEnvironment } from "./dom.ts";

/**
 * `@atelier/image-viewer`'s IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY, kept equal by a test: repeated so that the shell
 * does not depend on the viewer's package (and its React peers) for one string.
 */
export const VIEWER_RETURN_FOCUS_STORAGE_KEY = "atelier-image-viewer:return-focus";

/**
 * Back from the viewer, a page of its own since decision 0037: the link that opened the image takes the focus again,
 * as the app's painting page does with its navigation state. The viewer leaves `{ path, href }` in session storage.
 */
export function returnFocusFromViewer({ document, window }: SiteShellEnvironment): void {
  let storage: Storage;
  try {
    storage = window.sessionStorage;
  } catch {
    return;
  }
  const stored = readStorage(storage, VIEWER_RETURN_FOCUS_STORAGE_KEY);
  if (stored === null) return;
  try {
    storage.removeItem(VIEWER_RETURN_FOCUS_STORAGE_KEY);
  } catch {
    // Storage that refuses removal refused the viewer's note too.
  }
  let returnFocus: unknown;
  try {
    returnFocus = JSON.parse(stored);
  } catch {
    return;
  }
  if (!isReturnFocusNote(returnFocus) || returnFocus.path !== window.location.pathname) return;
  const { href } = returnFocus;
  const link = [...document.querySelectorAll("a[href]")].find((anchor) => anchor.getAttribute("href") === href);
  if (link instanceof window.HTMLElement) link.focus();
}

function isReturnFocusNote(value: unknown): value is { path: unknown; href: string } {
  return typeof value === "object" && value !== null && "href" in value && typeof value.href === "string" && "path" in value;
}
