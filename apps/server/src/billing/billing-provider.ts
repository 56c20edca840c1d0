/**
 * The port behind which a billing provider sits: Stripe (`stripe-provider.ts`) or the development stand-in
 * (`dev-provider.ts`). Both sign their webhooks the Stripe way, so one verification and one sync serve both.
 */

/** A subscription as the provider knows it now; `currentPeriodEnd` is seconds since the epoch. */
export type ProviderSubscription = {
  id: string;
  customerId: string;
  status: string;
  priceId: string;
  /** The subscription item carrying the price (Stripe's portal deep link changes it); `null` when unknown. */
  itemId: string | null;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
};

/** The parts of a verified webhook event that the sync needs. */
export type VerifiedWebhookEvent = { id: string; type: string; customerId: string | null };

export type BillingProvider = {
  readonly name: "stripe" | "dev";
  /** Creates the customer of a user; the same `idempotencyKey` never makes a second one. */
  createCustomer(input: { userId: string; email: string | null; idempotencyKey: string }): Promise<string>;
  /** A checkout for one price; the success URL keeps the literal `{CHECKOUT_SESSION_ID}` template. */
  createCheckoutSession(input: {
    customerId: string;
    userId: string;
    priceId: string;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<{ id: string; url: string }>;
  /**
   * Expires every open checkout session of the customer but `keepSessionId`: two tabs with two plans must not both be
   * payable, or the customer pays twice. A session that is no longer open when its turn comes (paid or expired in
   * between) is left as it is.
   */
  expireOtherOpenCheckoutSessions(input: { customerId: string; keepSessionId: string }): Promise<void>;
  /**
   * The billing portal; with `switchTo` it opens straight on the confirmation of that plan change (Stripe's
   * `subscription_update_confirm` flow), as 'Upgrade Plan' and 'Downgrade Plan' ask.
   */
  createPortalSession(input: { customerId: string; returnUrl: string; switchTo?: { subscriptionId: string; itemId: string | null; priceId: string } }): Promise<{ url: string }>;
  /** Ends a subscription now (an account deletion); the same `idempotencyKey` never cancels twice. */
  cancelSubscriptionNow(input: { subscriptionId: string; idempotencyKey: string }): Promise<void>;
  /** Every subscription of the customer, whatever its status: the truth the sync stores. */
  listSubscriptions(customerId: string): Promise<ProviderSubscription[]>;
  /** Checks the `Stripe-Signature` header against the raw body; throws `WebhookSignatureError` when it fails. */
  verifyWebhook(payload: string, signatureHeader: string | undefined): VerifiedWebhookEvent;
};

export class WebhookSignatureError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "WebhookSignatureError";
  }
}

/** The customer id carried by an event's object: `customer` (a string or an expanded object), or the customer itself. */
export function customerIdOfEventObject(object: unknown): string | null {
  if (typeof object !== "object" || object === null) return null;
  const record = object as { object?: unknown; id?: unknown; customer?: unknown };
  if (record.object === "customer" && typeof record.id === "string") return record.id;
  if (typeof record.customer === "string") return record.customer;
  if (typeof record.customer === "object" && record.customer !== null && typeof (record.customer as { id?: unknown }).id === "string") {
    return (record.customer as { id: string }).id;
  }
  return null;
}
