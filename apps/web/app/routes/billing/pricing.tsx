import { PricingPage } from "../../billing/PricingPage.tsx";
import { billingPageMeta } from "../../billing/billing-meta.ts";

export const meta = billingPageMeta("Pricing");

/** Public and client-only: the cards depend on the visitor's subscription. */
export default function PricingRoute() {
  return <PricingPage />;
}
