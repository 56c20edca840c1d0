import Stripe from "stripe";
import type { Clock } from "../clock.ts";
import { customerIdOfEventObject, WebhookSignatureError, type VerifiedWebhookEvent } from "./billing-provider.ts";

/** The development provider's signing secret: fixed, public, and refused in production with the provider itself. */
export const developmentWebhookSecret = "whsec_atelier_development_only_never_use_in_production";

/** Stripe's default: a signature older than 5 minutes is refused (replays). */
export const webhookToleranceSeconds = 300;

// Only the webhook helpers of this instance are used: they make no network calls.
const offlineStripe = new Stripe("sk_test_offline_signature_helpers_only", { telemetry: false, maxNetworkRetries: 0 });

/**
 * Verifies a Stripe-style signature with the SDK (`t=…,v1=HMAC`), measured against our clock.
 *
 * @example
 * const event = verifyStripeSignature(rawBody, c.req.header("stripe-signature"), secret, clock);
 */
export function verifyStripeSignature(payload: string, signatureHeader: string | undefined, secret: string, clock: Clock): VerifiedWebhookEvent {
  if (!signatureHeader) {
    throw new WebhookSignatureError("The Stripe-Signature header is missing.");
  }
  let event: Stripe.Event;
  try {
    event = offlineStripe.webhooks.constructEvent(payload, signatureHeader, secret, webhookToleranceSeconds, undefined, clock().getTime());
  } catch (error) {
    throw new WebhookSignatureError("The webhook signature is invalid or too old.", { cause: error });
  }
  // The signature only proves who sent the body; a body that is not an event would otherwise fail later with a 500.
  const { id, type, data } = (typeof event === "object" && event !== null ? event : {}) as Partial<Stripe.Event>;
  if (typeof id !== "string" || typeof type !== "string" || typeof data !== "object" || data === null) {
    throw new WebhookSignatureError("The signed webhook is not a Stripe event (id, type and data are required).");
  }
  return { id, type, customerId: customerIdOfEventObject(data.object) };
}

/**
 * Signs a payload as Stripe does (the development provider's deliveries; tests).
 *
 * @example
 * const header = signWebhookPayload(JSON.stringify(event), developmentWebhookSecret, clock);
 */
export function signWebhookPayload(payload: string, secret: string, clock: Clock): string {
  return offlineStripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(clock().getTime() / 1000) });
}
