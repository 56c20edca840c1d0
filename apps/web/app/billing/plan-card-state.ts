import type { PricingInterval, PricingProduct, SubscriptionItem, SubscriptionStatus } from "@atelier/site-api";

export const MILLISECONDS_PER_DAY = 86_400_000;

/** The four states of a plan card (spec 4.4), as an enumerated `kind`. */
export type PlanCardState =
  | { kind: "current"; daysLeft: number | undefined }
  | { kind: "upgrade" }
  | { kind: "downgrade" }
  | { kind: "choose" };

export type PlanCardKind = PlanCardState["kind"];

/** The text of each state's label or button (spec 4.4). */
export const PLAN_CARD_LABELS = {
  current: "Current plan",
  upgrade: "Upgrade Plan",
  downgrade: "Downgrade Plan",
  choose: "Choose plan",
} as const satisfies Record<PlanCardKind, string>;

/** The cards of one interval, in the server's order. */
export function productsForInterval(products: readonly PricingProduct[], interval: PricingInterval): PricingProduct[] {
  return products.filter((product) => product.price.interval === interval);
}

/**
 * Whole days until `expiresAtSeconds`: the ceiling of the remaining milliseconds over one day, at least 0 (spec 4.4).
 *
 * @example
 * daysLeftUntil(1_700_000_000, 1_700_000_000_000 - 1); // 1
 */
export function daysLeftUntil(expiresAtSeconds: number, nowMilliseconds: number): number {
  return Math.max(0, Math.ceil((expiresAtSeconds * 1000 - nowMilliseconds) / MILLISECONDS_PER_DAY));
}

/** "12 days left", "1 day left". */
export function formatDaysLeft(daysLeft: number): string {
  return `${daysLeft} ${daysLeft === 1 ? "day" : "days"} left`;
}

/** The active items of the subscription list: a user has a plan when an item for it is active (spec §6). */
export function activeSubscriptionItems(status: SubscriptionStatus | undefined): SubscriptionItem[] {
  return (status?.subscriptions ?? []).filter((item) => item.is_active);
}

function itemIsForProduct(item: SubscriptionItem, product: PricingProduct): boolean {
  if (item.product_id) return item.product_id === product.price.product_id;
  // Without a product id, the plan name is the only link between the item and the card.
  return item.plan !== null && item.plan !== undefined && item.plan === product.name;
}

/** The price per month in cents, so a yearly and a monthly price compare like for like. */
function monthlyEquivalentInCents(amountInCents: number, interval: PricingInterval): number {
  return interval === "year" ? amountInCents / 12 : amountInCents;
}

/**
 * The state of one plan card for a user's subscription status at `nowMilliseconds` (spec 4.4). The current plan is
 * this product at this price (so at this interval: Plus yearly is not current for a Plus monthly subscriber). Other
 * cards compare by price in cents per month, so that a yearly price is not an "upgrade" from a monthly one only
 * because it is paid for twelve months at once; the same product at the other interval is an upgrade to yearly and a
 * downgrade to monthly. Without an active subscription every card offers 'Choose plan'. `allProducts` (every card of
 * both intervals) tells the interval of the subscribed price.
 *
 * @example
 * planCardState(product, status, Date.now(), products); // { kind: "current", daysLeft: 12 }
 */
export function planCardState(product: PricingProduct, status: SubscriptionStatus | undefined, nowMilliseconds: number, allProducts: readonly PricingProduct[] = [product]): PlanCardState {
  const activeItems = activeSubscriptionItems(status);
  const itemIsThisPrice = (item: SubscriptionItem) => itemIsForProduct(item, product) && (item.amount_in_cents === null || item.amount_in_cents === undefined || item.amount_in_cents === product.price.amount_in_cents);
  const currentItem = activeItems.find(itemIsThisPrice);
  if (currentItem) {
    const expiresAt = currentItem.expires_at ?? status?.expires_at ?? null;
    return { kind: "current", daysLeft: expiresAt === null ? undefined : daysLeftUntil(expiresAt, nowMilliseconds) };
  }
  const subscribedItem = activeItems[0];
  if (!subscribedItem) return { kind: "choose" };
  const subscribedAmountInCents = subscribedItem.amount_in_cents ?? 0;
  const subscribedProduct = allProducts.find((candidate) => itemIsForProduct(subscribedItem, candidate) && candidate.price.amount_in_cents === subscribedAmountInCents);
  const subscribedInterval = subscribedProduct?.price.interval ?? product.price.interval;
  if (subscribedProduct && subscribedProduct.price.product_id === product.price.product_id && subscribedInterval !== product.price.interval) {
    return product.price.interval === "year" ? { kind: "upgrade" } : { kind: "downgrade" };
  }
  const cardPerMonth = monthlyEquivalentInCents(product.price.amount_in_cents, product.price.interval);
  const subscribedPerMonth = monthlyEquivalentInCents(subscribedAmountInCents, subscribedInterval);
  return cardPerMonth > subscribedPerMonth ? { kind: "upgrade" } : { kind: "downgrade" };
}
