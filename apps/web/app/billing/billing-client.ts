import { createBillingClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

export { BILLING_PATHS, checkoutErrorText, CHECKOUT_UNREADABLE_BODY, createBillingClient, CSRF_FORM_FIELD_NAME, pricingErrorText, PRICING_UNREADABLE_MESSAGE } from "@atelier/site-api";
export type { BillingClient, BillingResult } from "@atelier/site-api";

/** The client the subscription screens use. */
export const billingClient = createBillingClient(siteHttp);
