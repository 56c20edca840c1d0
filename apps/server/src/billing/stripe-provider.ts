import Stripe from "stripe";
import type { Clock } from "../clock.ts";
import type { BillingProvider, ProviderSubscription } from "./billing-provider.ts";
import { verifyStripeSignature } from "./webhook-signature.ts";

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  /** Another API server than Stripe's (tests: a local `node:http` server). */
  api?: { host: string; port: number; protocol: "http" | "https" } | null;
  clock: Clock;
};

/** The API version our sync reads (period ends on the subscription items); the one SDK 23.1.0 pins. */
export const stripeApiVersion = "2026-10-28.endive";

/**
 * The Stripe provider: Checkout and the Customer Portal with the official SDK, our own idempotency keys,
 * subscriptions re-read with `subscriptions.list` (status "all").
 *
 * @example
 * const provider = createStripeProvider({ secretKey, webhookSecret, clock });
 */
export function createStripeProvider(options: StripeProviderOptions): BillingProvider {
  const stripe = new Stripe(options.secretKey, {
    apiVersion: stripeApiVersion,
    telemetry: false,
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "Atelier" },
    ...(options.api ? { host: options.api.host, port: options.api.port, protocol: options.api.protocol } : {}),
  });

  return {
    name: "stripe",
    async createCustomer({ userId, email, idempotencyKey }) {
      const customer = await stripe.customers.create({ ...(email ? { email } : {}), metadata: { userId } }, { idempotencyKey });
      return customer.id;
    },
    async createCheckoutSession({ customerId, userId, priceId, successUrl, cancelUrl, idempotencyKey }) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "subscription",
          customer: customerId,
          client_reference_id: userId,
          line_items: [{ price: priceId, quantity: 1 }],
          // `{CHECKOUT_SESSION_ID}` is a literal template that Stripe fills in; it must reach Stripe unencoded.
          success_url: successUrl,
          cancel_url: cancelUrl,
          metadata: { userId },
          subscription_data: { metadata: { userId } },
          locale: "auto",
        },
        { idempotencyKey },
      );
      if (!session.url) {
        throw new Error(`Stripe answered checkout session ${session.id} without a URL.`);
      }
      return { id: session.id, url: session.url };
    },
    async expireOtherOpenCheckoutSessions({ customerId, keepSessionId }) {
      for await (const session of stripe.checkout.sessions.list({ customer: customerId, status: "open", limit: 100 })) {
        if (session.id === keepSessionId) continue;
        try {
          await stripe.checkout.sessions.expire(session.id);
        } catch (error) {
          // Paid or expired since the list was read: nothing is left to expire. Any other failure is the checkout's.
          if ((await stripe.checkout.sessions.retrieve(session.id)).status === "open") throw error;
        }
      }
    },
    async createPortalSession({ customerId, returnUrl, switchTo }) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
        ...(switchTo && switchTo.itemId
          ? {
              flow_data: {
                type: "subscription_update_confirm" as const,
                subscription_update_confirm: { subscription: switchTo.subscriptionId, items: [{ id: switchTo.itemId, price: switchTo.priceId, quantity: 1 }] },
                after_completion: { type: "redirect" as const, redirect: { return_url: returnUrl } },
              },
            }
          : {}),
      });
      return { url: session.url };
    },
    async cancelSubscriptionNow({ subscriptionId, idempotencyKey }) {
      await stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey });
    },
    async listSubscriptions(customerId) {
      const subscriptions: ProviderSubscription[] = [];
      for await (const subscription of stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 })) {
        subscriptions.push(toProviderSubscription(subscription));
      }
      return subscriptions;
    },
    verifyWebhook(payload, signatureHeader) {
      return verifyStripeSignature(payload, signatureHeader, options.webhookSecret, options.clock);
    },
  };
}

/** Reduces a Stripe subscription to what we store; since API 2025-03-31 the period end lives on the items. */
export function toProviderSubscription(subscription: Stripe.Subscription): ProviderSubscription {
  const item = subscription.items.data[0];
  const customer = subscription.customer;
  return {
    id: subscription.id,
    customerId: typeof customer === "string" ? customer : customer.id,
    status: subscription.status,
    priceId: item?.price.id ?? "",
    itemId: item?.id ?? null,
    currentPeriodEnd: item?.current_period_end ?? null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}
