/**
 * The subscription plans: the ONE place where they are defined (decision 0017).
 * Names, texts, prices and entitlements live here, in code; Stripe only holds the matching prices, whose ids
 * come from `STRIPE_PRICE_IDS` (keys `<plan key>_<interval>`, see `planPriceKeys`). The development provider
 * invents its own ids (`price_dev_<plan key>_<interval>`).
 */

export type PlanInterval = "month" | "year";
export const planIntervals: readonly PlanInterval[] = ["month", "year"];

export type PlanKey = "basic" | "plus" | "studio";

/**
 * What a plan unlocks, as data. The study API enforces each of them (decision 0024); a plan's `features` name only
 * what is here, so the pricing page sells nothing the server does not give.
 */
export type PlanEntitlements = {
  /** How many private flashcard decks the user may keep; `null` = no limit. Public decks are never counted. */
  privateDecks: number | null;
  /** Download decks that other learners shared as CSV or Anki files (one's own decks are one's data: always). */
  sharedDeckExports: boolean;
};

export type Plan = {
  key: PlanKey;
  name: string;
  description: string;
  features: readonly string[];
  isDefault: boolean;
  /** Whole Swiss francs per interval. */
  pricesInFrancs: Record<PlanInterval, number>;
  entitlements: PlanEntitlements;
};

export const currency = "chf";

export const plans: readonly Plan[] = [
  {
    key: "basic",
    name: "Basic",
    description: "For curious learners: keep a few Swedish decks to yourself.",
    features: ["Up to 5 private flashcard decks", "Export your own decks as CSV or Anki files"],
    isDefault: false,
    pricesInFrancs: { month: 5, year: 50 },
    entitlements: { privateDecks: 5, sharedDeckExports: false },
  },
  {
    key: "plus",
    name: "Plus",
    description: "For regular learners: many private decks, and every shared deck to take to Anki.",
    features: ["Up to 50 private flashcard decks", "Export your own decks as CSV or Anki files", "Export any shared deck as CSV or Anki files"],
    isDefault: true,
    pricesInFrancs: { month: 9, year: 90 },
    entitlements: { privateDecks: 50, sharedDeckExports: true },
  },
  {
    key: "studio",
    name: "Studio",
    description: "For devoted learners and friends of the studio: everything, without limits.",
    features: ["Unlimited private flashcard decks", "Export your own decks as CSV or Anki files", "Export any shared deck as CSV or Anki files"],
    isDefault: false,
    pricesInFrancs: { month: 19, year: 190 },
    entitlements: { privateDecks: null, sharedDeckExports: true },
  },
];

/** What a signed-in user without an active subscription gets. */
export const freeEntitlements: PlanEntitlements = { privateDecks: 1, sharedDeckExports: false };

/** The keys of `STRIPE_PRICE_IDS`: one per plan and interval, such as `basic_month`. */
export const planPriceKeys: readonly string[] = plans.flatMap((plan) => planIntervals.map((interval) => `${plan.key}_${interval}`));

/** One price of one plan, with the provider's price id. */
export type PlanPrice = { plan: Plan; interval: PlanInterval; priceId: string; amountInCents: number };

export type PlanCatalogue = {
  /** Every price: for each interval (month first), every plan in the order above. */
  prices: readonly PlanPrice[];
  findPrice: (priceId: string) => PlanPrice | undefined;
};

/** The development provider's price id of a plan and interval. */
export function developmentPriceId(key: PlanKey, interval: PlanInterval): string {
  return `price_dev_${key}_${interval}`;
}

/**
 * Joins the plans with the provider's price ids.
 *
 * @example
 * const catalogue = createPlanCatalogue((key, interval) => priceIds[`${key}_${interval}`]);
 */
export function createPlanCatalogue(priceIdOf: (key: PlanKey, interval: PlanInterval) => string): PlanCatalogue {
  const prices = planIntervals.flatMap((interval) =>
    plans.map((plan): PlanPrice => ({ plan, interval, priceId: priceIdOf(plan.key, interval), amountInCents: plan.pricesInFrancs[interval] * 100 })),
  );
  const byPriceId = new Map(prices.map((price) => [price.priceId, price]));
  return { prices, findPrice: (priceId) => byPriceId.get(priceId) };
}
