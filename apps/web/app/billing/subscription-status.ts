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
