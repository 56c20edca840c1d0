import { getAuthenticationInfo } from "@atelier/auth";
import type { AuthStore } from "@atelier/auth/react";
import { NO_SUBSCRIPTION, type BillingClient, type SubscriptionStatus } from "@atelier/site-api";

/** The visitor's subscription as a loader read it: after a failed call, the cleared status (spec §8). */
export interface LoadedSubscriptionStatus {
  loadState: "ready" | "error";
  status: SubscriptionStatus;
}

/**
 * The subscription status for a loader (the dashboard's card, the pricing's cards); a failure is logged and clears it.
 *
 * @example
 * const { status } = await loadSubscriptionStatus(billingClient);
 */
export async function loadSubscriptionStatus(client: BillingClient): Promise<LoadedSubscriptionStatus> {
  const result = await client.loadSubscriptionStatus();
  if (result.status === "ok") return { loadState: "ready", status: result.data };
  console.error(result.message);
  return { loadState: "error", status: NO_SUBSCRIPTION };
}

/**
 * Whether the visitor is signed in, for a billing loader, so that a signed-out visitor makes no subscription call.
 * While the store has no status yet, `askServer` says whether to ask for it (the signed-in hint on /pricing; always on
 * the account screens, whose layout asks anyway); without it the visitor counts as signed out. The store shares one
 * request between this and the root's own load.
 *
 * @example
 * const signedIn = await readSignedIn(authStore, hasSignedInHint());
 */
export async function readSignedIn(store: AuthStore, askServer: boolean): Promise<boolean> {
  if (store.getState().loadState === "loading") {
    if (!askServer) return false;
    await store.getState().load();
  }
  const { loadState, authenticationResponse } = store.getState();
  return loadState === "ready" && getAuthenticationInfo(authenticationResponse).isAuthenticated;
}
