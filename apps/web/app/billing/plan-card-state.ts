import type { PricingInterval, PricingProduct, SubscriptionItem, SubscriptionStatus } from "./billing-types.ts";

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

/**
 * The state of one plan card for a user's subscription status at `nowMilliseconds` (spec 4.4): the product of an
 * active item is the current plan; other cards offer an upgrade when their price in cents exceeds the current
 * plan's, a downgrade otherwise; without an active subscription every card offers 'Choose plan'.
 *
 * @example
 * planCardState(product, status, Date.now()); // { kind: "current", daysLeft: 12 }
 */
export function planCardState(product: PricingProduct, status: SubscriptionStatus | undefined, nowMilliseconds: number): PlanCardState {
  const activeItems = activeSubscriptionItems(status);
  const currentItem = activeItems.find((item) => itemIsForProduct(item, product));
  if (currentItem) {
    const expiresAt = currentItem.expires_at ?? status?.expires_at ?? null;
    return { kind: "current", daysLeft: expiresAt === null ? undefined : daysLeftUntil(expiresAt, nowMilliseconds) };
  }
  const subscribedItem = activeItems[0];
  if (!subscribedItem) return { kind: "choose" };
  const currentAmountInCents = subscribedItem.amount_in_cents ?? 0;
  return product.price.amount_in_cents > currentAmountInCents ? { kind: "upgrade" } : { kind: "downgrade" };
}
