/**
 * The subscription plans: the ONE place where they are defined (decision 0017).
 * Names, texts, prices and entitlements live here, in code; Stripe only holds the matching prices, whose ids
 * come from `STRIPE_PRICE_IDS` (keys `<plan key>_<interval>`, see `planPriceKeys`). The development provider
 * invents its own ids (`price_dev_<plan key>_<interval>`).
 */

export type PlanInterval = "month" | "year";
export const planIntervals: readonly PlanInterval[] = ["month", "year"];

export type PlanKey = "basic" | "plus" | "studio";

/** What a plan unlocks, as data; other features read it through `entitlementsOf` (nothing enforces it yet). */
export type PlanEntitlements = {
  /** How many private flashcard decks the user may keep; `null` = no limit. */
  privateDecks: number | null;
  /** Download decks as CSV or Anki files. */
  deckExports: boolean;
  /** Days before the public that new paintings are shown to the subscriber (0 = none). */
  earlyAccessDays: number;
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
    description: "For curious learners: keep your own Swedish decks and follow the studio.",
    features: ["Up to 5 private flashcard decks", "Study progress on all your devices", "The studio letter with every new painting"],
    isDefault: false,
    pricesInFrancs: { month: 5, year: 50 },
    entitlements: { privateDecks: 5, deckExports: false, earlyAccessDays: 0 },
  },
  {
    key: "plus",
    name: "Plus",
    description: "For regular learners and collectors: more decks, exports and an early look at new work.",
    features: ["Up to 50 private flashcard decks", "Export decks as CSV or Anki files", "See new paintings 2 days before everyone else"],
    isDefault: true,
    pricesInFrancs: { month: 9, year: 90 },
    entitlements: { privateDecks: 50, deckExports: true, earlyAccessDays: 2 },
  },
  {
    key: "studio",
    name: "Studio",
    description: "For devoted friends of the studio: everything without limits and the first look at every painting.",
    features: ["Unlimited private flashcard decks", "Export decks as CSV or Anki files", "See new paintings 7 days before everyone else"],
    isDefault: false,
    pricesInFrancs: { month: 19, year: 190 },
    entitlements: { privateDecks: null, deckExports: true, earlyAccessDays: 7 },
  },
];

/** What a signed-in user without an active subscription gets. */
export const freeEntitlements: PlanEntitlements = { privateDecks: 1, deckExports: false, earlyAccessDays: 0 };

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
