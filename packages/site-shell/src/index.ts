export { startSiteShell } from "./site-shell.ts";
export type { SiteShellEnvironment } from "./dom.ts";
export { nextHeaderVisibility, type HeaderVisibility } from "./header.ts";
export { SIGNED_IN_HINT_COOKIE } from "./account-entry.ts";
export { VIEWER_RETURN_FOCUS_STORAGE_KEY } from "./viewer-focus-return.ts";
