import { SITE_NAME } from "../lib/site-meta.ts";

/** Billing screens are client-only and personal: a title, and no indexing. */
export function billingPageMeta(title: string) {
  return () => [{ title: `${title} | ${SITE_NAME}` }, { name: "robots", content: "noindex" }];
}

/** Where a signed-out choice on /pricing goes, coming back to /pricing after signing in (spec 4.4 says /login). */
export const PRICING_LOGIN_PATH = "/account/login?next=/pricing";

/** Spec §2.3, word for word. */
export const CHECKOUT_CANCELED_TEXT = "Order canceled -- continue to shop around and checkout when you're ready.";

/** Navigation state of /checkout-session and /stripe-portal-session (spec §2.2, §2.3). */
export interface PriceNavigationState {
  priceId?: string;
}

/**
 * Navigation state of /pricing after a checkout: a failed one's error stays visible there (spec §8); a cancelled one
 * was sent there from /checkout-success, which shows the cancel text (spec §2.3).
 */
export interface PricingNavigationState {
  checkoutError?: string;
  checkoutCanceled?: boolean;
}

export function readPriceIdFromState(state: unknown): string | undefined {
  if (typeof state !== "object" || state === null) return undefined;
  const priceId = (state as PriceNavigationState).priceId;
  return typeof priceId === "string" && priceId !== "" ? priceId : undefined;
}

export function readCheckoutErrorFromState(state: unknown): string | undefined {
  if (typeof state !== "object" || state === null) return undefined;
  const message = (state as PricingNavigationState).checkoutError;
  return typeof message === "string" && message !== "" ? message : undefined;
}

export function readCheckoutCanceledFromState(state: unknown): boolean {
  return typeof state === "object" && state !== null && (state as PricingNavigationState).checkoutCanceled === true;
}

/** A renewal or expiry date, e.g. '14 March 2026'. */
export function formatBillingDate(expiresAtSeconds: number): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" }).format(new Date(expiresAtSeconds * 1000));
}
