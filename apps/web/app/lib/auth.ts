import { createAllauthClient, readCookieValue } from "@atelier/auth";
import { createAuthStore } from "@atelier/auth/react";

/** One client and one store for the whole page: the identity service is on our own origin, browser mode. */
export const authClient = createAllauthClient({ baseUrl: "/_allauth", clientType: "browser" });
export const authStore = createAuthStore(authClient);

/** Set by the server while this browser is signed in (the session cookie itself is HttpOnly). */
export const SIGNED_IN_HINT_COOKIE_NAME = "atelier_signed_in";

/**
 * Whether to ask the server for the session on page load. A visitor who never signed in is simply signed out, so
 * public pages make no status call for them (no extra request, no 401 in the console); a stale hint only costs one call.
 */
export function hasSignedInHint(): boolean {
  return typeof document !== "undefined" && readCookieValue(document.cookie, SIGNED_IN_HINT_COOKIE_NAME) !== undefined;
}

/** Loads the configuration and the status unless they are already in (account screens and the login modal need them). */
export function ensureAuthenticationStatusLoaded(): void {
  if (authStore.getState().loadState !== "ready") void authStore.getState().load();
}
