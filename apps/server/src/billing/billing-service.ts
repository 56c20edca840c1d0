import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { HttpError, RequestValidationError } from "../http/http-errors.ts";
import type { AuthenticatedUser } from "../identity/index.ts";
import { WebhookSignatureError, type BillingProvider, type VerifiedWebhookEvent } from "./billing-provider.ts";
import { createBillingStore, type StoredSubscription } from "./billing-store.ts";
import { freeEntitlements, type PlanCatalogue, type PlanEntitlements } from "./plans.ts";
import { logger } from "../logging/logger.ts";

/** Subscription statuses that grant the plan (Stripe's meaning; the development provider uses the same words). */
export const activeSubscriptionStatuses: ReadonlySet<string> = new Set(["active", "trialing"]);
/** Finished subscriptions: kept in our table (the sync stores the truth) but not listed to the user. */
const finishedSubscriptionStatuses: ReadonlySet<string> = new Set(["canceled", "incomplete_expired"]);

/** Event types whose arrival makes us re-read the customer's subscriptions. */
export function triggersSync(eventType: string): boolean {
  return eventType.startsWith("customer.subscription.") || eventType.startsWith("checkout.session.") || eventType.startsWith("invoice.");
}

export type PricingProduct = {
  name: string;
  description: string;
  features: string[];
  is_default: boolean;
  stripe_id: string;
  price: { amount: number; amount_in_cents: number; interval: "month" | "year"; product_id: string };
};

export type SubscriptionItem = {
  subscription_id: string;
  plan: string | null;
  is_active: boolean;
  expires_at: number | null;
  /** Additive to the contract: cancelled in the portal, so `expires_at` ends the plan instead of renewing it. */
  cancel_at_period_end: boolean;
  product_id: string | null;
  amount_in_cents: number | null;
};

export type SubscriptionStatus = {
  has_subscription: boolean;
  plan: string | null;
  is_active: boolean;
  expires_at: number | null;
  /** Additive to the contract: the active plan ends at `expires_at` rather than renewing. */
  cancel_at_period_end: boolean;
  subscriptions: SubscriptionItem[];
  /** Additive to the contract: what the active plan unlocks (decision 0017). */
  entitlements: PlanEntitlements;
};

export type BillingServiceOptions = {
  database: AtelierDatabase;
  provider: BillingProvider;
  catalogue: PlanCatalogue;
  publicOrigin: string;
  clock: Clock;
};

export const unknownPriceMessage = "This plan does not exist. Please reload the pricing page and choose again.";
export const checkoutSuccessPath = "/checkout-success?success=true&session_id={CHECKOUT_SESSION_ID}";
export const checkoutCancelPath = "/checkout-success?canceled=true";

/** Seconds-bucket of checkout idempotency keys: a double click within it gets the same checkout session. */
const checkoutIdempotencyWindowSeconds = 30;

/**
 * Pricing, subscription status, checkout, portal and the webhook's sync, over one provider.
 *
 * @example
 * const billing = createBillingService({ database, provider, catalogue, publicOrigin, clock });
 */
export function createBillingService(options: BillingServiceOptions) {
  const { provider, catalogue, clock } = options;
  const store = createBillingStore(options.database);

  function pricing(): { products: PricingProduct[] } {
    return {
      products: catalogue.prices.map((price) => ({
        name: price.plan.name,
        description: price.plan.description,
        features: [...price.plan.features],
        is_default: price.plan.isDefault,
        stripe_id: price.priceId,
        price: { amount: price.amountInCents / 100, amount_in_cents: price.amountInCents, interval: price.interval, product_id: price.plan.key },
      })),
    };
  }

  function toItem(row: StoredSubscription): SubscriptionItem {
    const price = catalogue.findPrice(row.price_id);
    return {
      subscription_id: row.subscription_id,
      plan: price?.plan.name ?? null,
      // Cancelled at the period's end and the period is over: ended, even before the provider's webhook says so.
      is_active: activeSubscriptionStatuses.has(row.status) && !(row.cancel_at_period_end === 1 && row.current_period_end !== null && Number(row.current_period_end) * 1000 <= clock().getTime()),
      expires_at: row.current_period_end === null ? null : Number(row.current_period_end),
      cancel_at_period_end: Number(row.cancel_at_period_end) === 1,
      product_id: row.plan_key,
      amount_in_cents: row.amount_in_cents === null ? null : Number(row.amount_in_cents),
    };
  }

  /**
   * Ends every live subscription of the user at the provider, now (an account deletion). Asks the provider, not our
   * copy, which ones live; each cancel carries an idempotency key of its own, so a retry after a failure cancels
   * nothing twice. Throws when the provider cannot be reached: the caller deletes nothing then.
   */
  async function cancelEverySubscriptionNow(userId: string): Promise<number> {
    const customerId = await store.findCustomerId(userId);
    if (customerId === null) return 0;
    try {
      const live = (await provider.listSubscriptions(customerId)).filter((subscription) => !endedSubscriptionStatuses.has(subscription.status));
      for (const subscription of live) {
        await provider.cancelSubscriptionNow({ subscriptionId: subscription.id, idempotencyKey: `account-deletion:${subscription.id}` });
      }
      return live.length;
    } catch (error) {
      throw providerUnavailable(error);
    }
  }

  async function subscriptionStatus(userId: string): Promise<SubscriptionStatus> {
    const rows = (await store.subscriptionsOfUser(userId)).filter((row) => !finishedSubscriptionStatuses.has(row.status));
    const items = rows.map(toItem).sort((first, second) => Number(second.is_active) - Number(first.is_active));
    const active = items.find((item) => item.is_active) ?? null;
    const activePrice = active ? catalogue.findPrice(rows.find((row) => row.subscription_id === active.subscription_id)?.price_id ?? "") : undefined;
    return {
      has_subscription: active !== null,
      plan: active?.plan ?? null,
      is_active: active !== null,
      expires_at: active?.expires_at ?? null,
      cancel_at_period_end: active?.cancel_at_period_end ?? false,
      subscriptions: items,
      entitlements: activePrice?.plan.entitlements ?? freeEntitlements,
    };
  }

  async function ensureCustomer(user: AuthenticatedUser): Promise<string> {
    const existing = await store.findCustomerId(user.id);
    if (existing) return existing;
    const customerId = await provider.createCustomer({ userId: user.id, email: user.email, idempotencyKey: `atelier-customer:${user.id}` });
    return store.saveCustomer({ userId: user.id, provider: provider.name, customerId, now: clock() });
  }

  async function createCheckoutSession(user: AuthenticatedUser, priceId: string): Promise<{ url: string }> {
    const price = catalogue.findPrice(priceId);
    if (!price) throw new RequestValidationError(unknownPriceMessage);
    const customerId = await ensureCustomer(user);
    const status = await subscriptionStatus(user.id);
    if (status.has_subscription) {
      // A second subscription would bill twice: plan changes of a subscriber go through the portal.
      return createPortalSessionFor(customerId);
    }
    const bucket = Math.floor(clock().getTime() / 1000 / checkoutIdempotencyWindowSeconds);
    const session = await provider.createCheckoutSession({
      customerId,
      userId: user.id,
      priceId,
      successUrl: `${options.publicOrigin}${checkoutSuccessPath}`,
      cancelUrl: `${options.publicOrigin}${checkoutCancelPath}`,
      idempotencyKey: `atelier-checkout:${user.id}:${priceId}:${bucket}`,
    });
    // Only the newest checkout can be paid: one started in another tab, perhaps for another plan, would bill a second
    // subscription (decision 0078). Two started at the same moment may expire each other; never both stay open.
    await provider.expireOtherOpenCheckoutSessions({ customerId, keepSessionId: session.id });
    return { url: session.url };
  }

  function createPortalSessionFor(customerId: string): Promise<{ url: string }> {
    return provider.createPortalSession({ customerId, returnUrl: `${options.publicOrigin}/dashboard` });
  }

  /**
   * The portal URL, or `null` when the user never started a checkout (no customer). With the price of another plan
   * (the card's 'Upgrade Plan' or 'Downgrade Plan'), the portal opens on the confirmation of that change; a price that
   * is unknown, or the one already paid, opens the portal's start page.
   */
  async function createPortalSession(user: AuthenticatedUser, targetPriceId?: string): Promise<{ url: string } | null> {
    const customerId = await store.findCustomerId(user.id);
    if (!customerId) return null;
    const target = targetPriceId ? catalogue.findPrice(targetPriceId) : undefined;
    if (target) {
      const live = (await provider.listSubscriptions(customerId)).find((subscription) => activeSubscriptionStatuses.has(subscription.status));
      if (live && live.priceId !== target.priceId) {
        return provider.createPortalSession({
          customerId,
          returnUrl: `${options.publicOrigin}/dashboard`,
          switchTo: { subscriptionId: live.id, itemId: live.itemId, priceId: target.priceId },
        });
      }
    }
    return createPortalSessionFor(customerId);
  }

  /**
   * The sync: reads the customer's subscriptions from the provider and stores exactly those, unless a sync that read
   * them later has stored its list already (the later read is the truer one).
   */
  async function syncCustomer(customerId: string): Promise<"synced" | "ignored"> {
    const userId = await store.findUserIdOfCustomer(customerId);
    if (!userId) return "ignored";
    const readStartedAt = clock();
    const subscriptions = await provider.listSubscriptions(customerId);
    const syncedAt = clock().toISOString();
    await store.replaceSubscriptions(
      customerId,
      subscriptions.map((subscription) => {
        const price = catalogue.findPrice(subscription.priceId);
        return {
          subscription_id: subscription.id,
          customer_id: customerId,
          user_id: userId,
          status: subscription.status,
          price_id: subscription.priceId,
          plan_key: price?.plan.key ?? null,
          amount_in_cents: price?.amountInCents ?? null,
          current_period_end: subscription.currentPeriodEnd,
          cancel_at_period_end: subscription.cancelAtPeriodEnd ? 1 : 0,
          synced_at: syncedAt,
        };
      }),
      readStartedAt,
    );
    return "synced";
  }

  /** Verifies, logs and syncs one delivery; the status is what the provider sees (5xx makes it retry). */
  async function handleWebhook(payload: string, signatureHeader: string | undefined): Promise<{ status: 200 | 400 | 500; message: string }> {
    let event;
    try {
      event = provider.verifyWebhook(payload, signatureHeader);
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        logger.warn(`Refused a billing webhook: ${error.message}`);
        return { status: 400, message: error.message };
      }
      throw error;
    }
    const fieldHoldingNul = webhookFieldHoldingNul(event);
    if (fieldHoldingNul) {
      const message = `The signed webhook's ${fieldHoldingNul} holds U+0000, which no Stripe id contains; the event is malformed and was not stored.`;
      logger.warn(`Refused a billing webhook: ${message}`);
      return { status: 400, message };
    }
    const deliveryId = crypto.randomUUID();
    await store.recordDelivery({ id: deliveryId, eventId: event.id, eventType: event.type, customerId: event.customerId, receivedAt: clock() });
    if (!triggersSync(event.type) || !event.customerId) {
      await store.finishDelivery(deliveryId, "ignored");
      return { status: 200, message: "Ignored." };
    }
    try {
      const outcome = await syncCustomer(event.customerId);
      await store.finishDelivery(deliveryId, outcome);
      return { status: 200, message: outcome === "synced" ? "Synced." : "Unknown customer; ignored." };
    } catch (error) {
      logger.error({ err: error }, `Billing webhook ${event.id} (${event.type}): syncing customer ${event.customerId} failed:`);
      await store.finishDelivery(deliveryId, "failed", error instanceof Error ? error.message : String(error)).catch(() => undefined);
      return { status: 500, message: "Syncing the subscription failed; please retry." };
    }
  }

  return { pricing, subscriptionStatus, createCheckoutSession, createPortalSession, syncCustomer, handleWebhook, cancelEverySubscriptionNow, store };
}

export type BillingService = ReturnType<typeof createBillingService>;

/** Subscriptions the provider will never charge again. */
const endedSubscriptionStatuses = new Set(["canceled", "incomplete_expired"]);

// PostgreSQL refuses U+0000 in text (a 500), SQLite stores it: refused before the database sees it, on both engines.
function webhookFieldHoldingNul(event: VerifiedWebhookEvent): string | null {
  if (event.id.includes("\u0000")) return "event id";
  if (event.type.includes("\u0000")) return "event type";
  if (event.customerId?.includes("\u0000")) return "customer id";
  return null;
}

/** Raised when the provider cannot be reached while a user waits (checkout, portal). */
export function providerUnavailable(cause: unknown): HttpError {
  return new HttpError(502, "The payment provider could not be reached. Please try again in a moment.", { cause });
}
