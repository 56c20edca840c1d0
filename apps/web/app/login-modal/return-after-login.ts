import { safeLocalPath } from "@atelier/auth";

/**
 * Where a visitor who started signing in from the login modal goes once a flow on another page (an e-mailed code, a
 * second factor, a new address to confirm) completes the sign-in: back to the page the modal was opened on, not to
 * /dashboard (issue 13). Kept for a quarter of an hour in this tab only.
 */
const RETURN_AFTER_LOGIN_KEY = "atelier:return-after-login";
const RETURN_LIFETIME_MILLISECONDS = 15 * 60 * 1000;

/**
 * The account pages of a sign-in, a sign-up or another flow, which a finished sign-in must not return to; the signed-in
 * user's own account pages (/account/sessions, /account/2fa…) are kept like any other page.
 */
const SIGN_IN_FLOW_PAGES = /^\/account\/(?:login|signup|logout|verify-email|password\/reset|reauthenticate|authenticate|provider|deleted)(?:[/?#]|$)/;

export function rememberReturnAfterLogin(path: string, now: number = Date.now()): void {
  if (safeLocalPath(path) === undefined || SIGN_IN_FLOW_PAGES.test(path)) return;
  try {
    window.sessionStorage.setItem(RETURN_AFTER_LOGIN_KEY, JSON.stringify({ path, at: now }));
  } catch {
    // Without storage the visitor lands on the dashboard, as after any sign-in.
  }
}

/** The remembered page, once: reading it forgets it. */
export function takeReturnAfterLogin(now: number = Date.now()): string | undefined {
  try {
    const raw = window.sessionStorage.getItem(RETURN_AFTER_LOGIN_KEY);
    window.sessionStorage.removeItem(RETURN_AFTER_LOGIN_KEY);
    const saved = raw ? (JSON.parse(raw) as { path?: unknown; at?: unknown }) : undefined;
    if (typeof saved?.path === "string" && typeof saved.at === "number" && now - saved.at < RETURN_LIFETIME_MILLISECONDS && safeLocalPath(saved.path) !== undefined) {
      return saved.path;
    }
  } catch {
    // Unreadable: the default target.
  }
  return undefined;
}
