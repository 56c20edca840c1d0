import { billingClient } from "../../billing/billing-client.ts";
import { billingPageMeta } from "../../billing/billing-meta.ts";
import { loadPricing, PricingLoading, PricingPage } from "../../billing/PricingPage.tsx";
import { readSignedIn } from "../../lib/guarded-load.ts";
import { authStore, hasSignedInHint } from "../../lib/auth.ts";
import type { Route } from "./+types/pricing";

export const meta = billingPageMeta("Pricing");

/** The plans, and the subscription of a signed-in visitor: a browser that never signed in makes no status call. */
export function clientLoader() {
  return loadPricing(billingClient, readSignedIn(authStore, hasSignedInHint()));
}

export function HydrateFallback() {
  return <PricingLoading />;
}

/** Public and client-only: the cards depend on the visitor's subscription. */
export default function PricingRoute({ loaderData }: Route.ComponentProps) {
  return <PricingPage data={loaderData} />;
}
