import * as v from "valibot";

/** Pricing intervals (spec §9). */
export const PRICING_INTERVALS = ["month", "year"] as const;
export type PricingInterval = (typeof PRICING_INTERVALS)[number];

export const pricingProductSchema = v.object({
  name: v.string(),
  description: v.nullish(v.string(), ""),
  features: v.nullish(v.array(v.string()), []),
  is_default: v.optional(v.boolean(), false),
  /** The price identifier sent to create-checkout-session. */
  stripe_id: v.string(),
  price: v.object({
    amount: v.number(),
    amount_in_cents: v.number(),
    interval: v.picklist(PRICING_INTERVALS),
    product_id: v.string(),
  }),
});
/** One product at one interval (spec §3, 'Pricing product'). */
export type PricingProduct = v.InferOutput<typeof pricingProductSchema>;

export const pricingAnswerSchema = v.object({ products: v.array(pricingProductSchema) });

const subscriptionItemSchema = v.object({
  subscription_id: v.optional(v.nullable(v.string())),
  plan: v.optional(v.nullable(v.string()), null),
  is_active: v.boolean(),
  /** Seconds since the epoch (spec §9). */
  expires_at: v.optional(v.nullable(v.number()), null),
  /** Atelier's server adds it: cancelled, so the plan ends at `expires_at` instead of renewing. */
  cancel_at_period_end: v.optional(v.boolean(), false),
  product_id: v.optional(v.nullable(v.string()), null),
  amount_in_cents: v.optional(v.nullable(v.number()), null),
});
export type SubscriptionItem = v.InferOutput<typeof subscriptionItemSchema>;

export const subscriptionStatusSchema = v.object({
  has_subscription: v.boolean(),
  plan: v.optional(v.nullable(v.string()), null),
  is_active: v.optional(v.boolean(), false),
  /** Seconds since the epoch (spec §9). */
  expires_at: v.optional(v.nullable(v.number()), null),
  /** Atelier's server adds it: the active plan ends at `expires_at` instead of renewing. */
  cancel_at_period_end: v.optional(v.boolean(), false),
  subscriptions: v.optional(v.array(subscriptionItemSchema), []),
});
/** The subscription status (spec §3). */
export type SubscriptionStatus = v.InferOutput<typeof subscriptionStatusSchema>;

/** What a signed-out visitor, or a failed status call, counts as (spec §8: the data is cleared). */
export const NO_SUBSCRIPTION: SubscriptionStatus = { has_subscription: false, plan: null, is_active: false, expires_at: null, cancel_at_period_end: false, subscriptions: [] };
