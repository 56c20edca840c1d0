export { NO_SUBSCRIPTION, PRICING_INTERVALS, pricingAnswerSchema, pricingProductSchema, subscriptionStatusSchema } from "@atelier/site-api";
export type { PricingInterval, PricingProduct, SubscriptionItem, SubscriptionStatus } from "@atelier/site-api";
