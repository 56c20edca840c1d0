import { HTTPError } from "ky";
import * as v from "valibot";
import { NO_SUBSCRIPTION, pricingAnswerSchema, subscriptionStatusSchema, type PricingProduct, type SubscriptionStatus } from "./billing-types.ts";
import type { SiteHttp } from "./site-http.ts";

export const BILLING_PATHS = {
  pricing: "/user/pricing",
  subscriptionStatus: "/user/subscription-status",
  createCheckoutSession: "/user/create-checkout-session",
  /** A real HTML form post (with `csrfmiddlewaretoken`), answered by a redirect to the billing portal. */
  createPortalSession: "/user/create-portal-session",
} as const;

/** The name of the CSRF field in a form post, as the server expects it (Django's convention). */
export const CSRF_FORM_FIELD_NAME = "csrfmiddlewaretoken";

export type BillingResult<Data> = { status: "ok"; data: Data } | { status: "error"; message: string; httpStatus?: number };

/** Spec §8: the pricing page shows 'Error: {message}'. */
export function pricingErrorText(message: string): string {
  return `Error: ${message}`;
}

/** Spec §8: 'Failed to create checkout session: {body}', body being the server's answer as text. */
export function checkoutErrorText(body: string): string {
  return `Failed to create checkout session: ${body}`;
}

/** The messages behind 'Error: {message}' when the server gives none of its own. */
export const PRICING_UNREADABLE_MESSAGE = "The pricing answer could not be read.";
export const CHECKOUT_UNREADABLE_BODY = "the answer had no checkout address.";

async function readBodyText(response: Response): Promise<string> {
  try {
    return await response.clone().text();
  } catch {
    return "";
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

/**
 * The subscription screens' calls to our own API (spec §7), each returning a result; failures carry the spec's text.
 *
 * @example
 * const result = await createBillingClient(createSiteHttp()).loadPricing();
 * if (result.status === "error") show(pricingErrorText(result.message));
 */
export function createBillingClient({ api }: SiteHttp) {

  return {
    /** GET /user/pricing: every product at every interval. A failure's message is shown as 'Error: {message}'. */
    async loadPricing(): Promise<BillingResult<PricingProduct[]>> {
      try {
        const response = await api.get(BILLING_PATHS.pricing);
        const parsed = v.safeParse(pricingAnswerSchema, await response.json());
        return parsed.success ? { status: "ok", data: parsed.output.products } : { status: "error", message: PRICING_UNREADABLE_MESSAGE, httpStatus: response.status };
      } catch (error) {
        if (error instanceof HTTPError) {
          const { status, statusText } = error.response;
          return { status: "error", message: `the server answered ${status}${statusText ? ` ${statusText}` : ""}.`, httpStatus: status };
        }
        return { status: "error", message: errorMessage(error) };
      }
    },

    /** GET /user/subscription-status with credentials; 401 (signed out) is no subscription, not an error. */
    async loadSubscriptionStatus(): Promise<BillingResult<SubscriptionStatus>> {
      try {
        const response = await api.get(BILLING_PATHS.subscriptionStatus, { credentials: "include" });
        const parsed = v.safeParse(subscriptionStatusSchema, await response.json());
        return parsed.success ? { status: "ok", data: parsed.output } : { status: "error", message: "The subscription status could not be read.", httpStatus: response.status };
      } catch (error) {
        if (error instanceof HTTPError) {
          if (error.response.status === 401) return { status: "ok", data: NO_SUBSCRIPTION };
          return { status: "error", message: `The subscription status failed with status ${error.response.status}.`, httpStatus: error.response.status };
        }
        return { status: "error", message: errorMessage(error) };
      }
    },

    /** POST /user/create-checkout-session {priceId}; answers the url to send the browser to. */
    async createCheckoutSession(priceId: string): Promise<BillingResult<{ url: string }>> {
      try {
        const response = await api.post(BILLING_PATHS.createCheckoutSession, { json: { priceId }, credentials: "include" });
        const body = await readBodyText(response);
        let answer: unknown;
        try {
          answer = JSON.parse(body) as unknown;
        } catch {
          answer = undefined;
        }
        const parsed = v.safeParse(v.object({ url: v.pipe(v.string(), v.nonEmpty()) }), answer);
        return parsed.success ? { status: "ok", data: { url: parsed.output.url } } : { status: "error", message: checkoutErrorText(body || CHECKOUT_UNREADABLE_BODY), httpStatus: response.status };
      } catch (error) {
        if (error instanceof HTTPError) {
          const body = await readBodyText(error.response);
          return { status: "error", message: checkoutErrorText(body || `${error.response.status} ${error.response.statusText}`.trim()), httpStatus: error.response.status };
        }
        return { status: "error", message: checkoutErrorText(errorMessage(error)) };
      }
    },
  };
}

export type BillingClient = ReturnType<typeof createBillingClient>;
