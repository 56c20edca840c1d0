import { getAuthenticationInfo, type AuthenticationInfo } from "@atelier/auth";
import type { AuthStore } from "@atelier/auth/react";

/**
 * What the loader of a page behind `ProtectedRoute` or `AnonymousRoute` returns: the page's data, or `"skipped"` when
 * the guard turns this visitor away (the login modal, the dashboard), so nothing was asked of the server. The route's
 * `HydrateFallback` is `GuardedLoading` (app/lib/guarded-loading.tsx), for the same visitors as the page.
 */
export type GuardedLoad<Data> = { state: "loaded"; data: Data } | { state: "skipped" };

/** The authentication status once it is in (one request, shared with the account layout's), or undefined if it failed. */
async function loadedStatus(store: AuthStore): Promise<AuthenticationInfo | undefined> {
  if (store.getState().loadState !== "ready") await store.getState().load();
  const { loadState, authenticationResponse } = store.getState();
  return loadState === "ready" ? getAuthenticationInfo(authenticationResponse) : undefined;
}

/**
 * A protected page's `clientLoader`: waits for the status, then loads for a signed-in user only. A signed-out visitor
 * asks the server nothing more than before the loaders (`ProtectedRoute` offers the login modal, a sign-in reloads
 * the page or comes back to it).
 *
 * @example
 * export function clientLoader() {
 *   return loadForSignedInUser(authStore, () => loadAuthenticators(authClient));
 * }
 */
export async function loadForSignedInUser<Data>(store: AuthStore, load: (status: AuthenticationInfo) => Promise<Data>): Promise<GuardedLoad<Data>> {
  const status = await loadedStatus(store);
  return status?.isAuthenticated ? { state: "loaded", data: await load(status) } : { state: "skipped" };
}

/**
 * The `clientLoader` of a page for signed-out visitors (`AnonymousRoute`): a signed-in user is sent to the dashboard
 * by the guard without any call of the page's own.
 *
 * @example
 * export function clientLoader() {
 *   return loadForSignedOutVisitor(authStore, () => loadProviderSignup(authClient));
 * }
 */
export async function loadForSignedOutVisitor<Data>(store: AuthStore, load: (status: AuthenticationInfo) => Promise<Data>): Promise<GuardedLoad<Data>> {
  const status = await loadedStatus(store);
  return status && !status.isAuthenticated ? { state: "loaded", data: await load(status) } : { state: "skipped" };
}

/**
 * Whether the visitor is signed in, for a public page's loader that shows more to a signed-in user (the pricing's
 * current plan). While the store has no status yet, `askServer` says whether to ask for it (the signed-in hint): a
 * visitor who never signed in makes no call. The store shares one request between this and the root's own load.
 *
 * @example
 * const signedIn = await readSignedIn(authStore, hasSignedInHint());
 */
export async function readSignedIn(store: AuthStore, askServer: boolean): Promise<boolean> {
  if (store.getState().loadState !== "ready" && !askServer) return false;
  return (await loadedStatus(store))?.isAuthenticated === true;
}
