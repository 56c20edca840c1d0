import { describe, expect, it } from "vitest";
import { NO_SUBSCRIPTION, type PricingProduct, type SubscriptionStatus } from "@atelier/site-api";
import { daysLeftUntil, formatDaysLeft, MILLISECONDS_PER_DAY, planCardState, productsForInterval } from "./plan-card-state.ts";

function product(name: string, productId: string, amountInCents: number, interval: "month" | "year" = "month"): PricingProduct {
  return {
    name,
    description: `${name} plan`,
    features: [],
    is_default: false,
    stripe_id: `price_${productId}_${interval}`,
    price: { amount: amountInCents / 100, amount_in_cents: amountInCents, interval, product_id: productId },
  };
}

const basic = product("Basic", "prod_basic", 900);
const standard = product("Standard", "prod_standard", 1900);
const premium = product("Premium", "prod_premium", 4900);

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const nowInSeconds = NOW / 1000;

function subscribedTo(item: Partial<SubscriptionStatus["subscriptions"][number]> & { product_id: string; amount_in_cents: number }): SubscriptionStatus {
  return {
    has_subscription: true,
    plan: "Standard",
    is_active: true,
    expires_at: nowInSeconds + 12 * 86_400,
    cancel_at_period_end: false,
    subscriptions: [{ subscription_id: "sub_1", plan: "Standard", is_active: true, expires_at: nowInSeconds + 12 * 86_400, cancel_at_period_end: false, ...item }],
  };
}

describe("given a user on the Standard plan", () => {
  const status = subscribedTo({ product_id: "prod_standard", amount_in_cents: 1900 });

  it("should mark the Standard card as the current plan with its days left", () => {
    expect(planCardState(standard, status, NOW)).toEqual({ kind: "current", daysLeft: 12 });
  });

  it("should offer an upgrade on a card whose price in cents exceeds the current one", () => {
    expect(planCardState(premium, status, NOW)).toEqual({ kind: "upgrade" });
  });

  it("should offer a downgrade on a cheaper card", () => {
    expect(planCardState(basic, status, NOW)).toEqual({ kind: "downgrade" });
  });

  it("should offer a downgrade, not an upgrade, on another card at the same price", () => {
    expect(planCardState(product("Other", "prod_other", 1900), status, NOW)).toEqual({ kind: "downgrade" });
  });
});

describe("given a user on Plus monthly looking at the yearly plans", () => {
  const basicMonthly = product("Basic", "basic", 900);
  const plusMonthly = product("Plus", "plus", 1500);
  const studioMonthly = product("Studio", "studio", 2900);
  const basicYearly = product("Basic", "basic", 9000, "year");
  const plusYearly = product("Plus", "plus", 15000, "year");
  const studioYearly = product("Studio", "studio", 29000, "year");
  const everyCard = [basicMonthly, plusMonthly, studioMonthly, basicYearly, plusYearly, studioYearly];
  const status = subscribedTo({ product_id: "plus", amount_in_cents: 1500 });

  it("should mark only Plus monthly as the current plan", () => {
    expect(planCardState(plusMonthly, status, NOW, everyCard).kind).toBe("current");
    expect(planCardState(plusYearly, status, NOW, everyCard).kind).not.toBe("current");
  });

  it("should offer Plus yearly as an upgrade, Basic yearly as a downgrade and Studio yearly as an upgrade", () => {
    expect(planCardState(plusYearly, status, NOW, everyCard)).toEqual({ kind: "upgrade" });
    expect(planCardState(basicYearly, status, NOW, everyCard)).toEqual({ kind: "downgrade" });
    expect(planCardState(studioYearly, status, NOW, everyCard)).toEqual({ kind: "upgrade" });
  });

  it("should offer Plus monthly as a downgrade to a Plus yearly subscriber", () => {
    const yearly = subscribedTo({ product_id: "plus", amount_in_cents: 15000 });
    expect(planCardState(plusMonthly, yearly, NOW, everyCard)).toEqual({ kind: "downgrade" });
    expect(planCardState(plusYearly, yearly, NOW, everyCard).kind).toBe("current");
  });
});

describe("given a user without an active subscription", () => {
  it("should offer 'Choose plan' on every card when there is no subscription", () => {
    for (const card of [basic, standard, premium]) expect(planCardState(card, NO_SUBSCRIPTION, NOW)).toEqual({ kind: "choose" });
  });

  it("should offer 'Choose plan' while the status is unknown (a signed-out visitor)", () => {
    expect(planCardState(standard, undefined, NOW)).toEqual({ kind: "choose" });
  });

  it("should not count an inactive item as the current plan", () => {
    const status = subscribedTo({ product_id: "prod_standard", amount_in_cents: 1900, is_active: false });
    expect(planCardState(standard, status, NOW)).toEqual({ kind: "choose" });
    expect(planCardState(premium, status, NOW)).toEqual({ kind: "choose" });
  });
});

describe("given an item without a product id", () => {
  it("should match the card by the plan's name", () => {
    const status = subscribedTo({ product_id: "", plan: "Premium", amount_in_cents: 4900 });
    expect(planCardState(premium, status, NOW).kind).toBe("current");
    expect(planCardState(standard, status, NOW).kind).toBe("downgrade");
  });
});

describe("given days left", () => {
  it("should round a part of a day up", () => {
    expect(daysLeftUntil(nowInSeconds + 1, NOW)).toBe(1);
    expect(daysLeftUntil((NOW + MILLISECONDS_PER_DAY + 1) / 1000, NOW)).toBe(2);
  });

  it("should count exactly whole days as they are", () => {
    expect(daysLeftUntil(nowInSeconds + 3 * 86_400, NOW)).toBe(3);
  });

  it("should never go below 0", () => {
    expect(daysLeftUntil(nowInSeconds, NOW)).toBe(0);
    expect(daysLeftUntil(nowInSeconds - 5 * 86_400, NOW)).toBe(0);
  });

  it("should show 0 days left on a current plan that has just expired but is still active", () => {
    const status = subscribedTo({ product_id: "prod_standard", amount_in_cents: 1900, expires_at: nowInSeconds - 60 });
    expect(planCardState(standard, status, NOW)).toEqual({ kind: "current", daysLeft: 0 });
  });

  it("should leave days left out when the item has no expiry", () => {
    const status: SubscriptionStatus = { ...subscribedTo({ product_id: "prod_standard", amount_in_cents: 1900, expires_at: null }), expires_at: null };
    expect(planCardState(standard, status, NOW)).toEqual({ kind: "current", daysLeft: undefined });
  });

  it("should read as a sentence", () => {
    expect(formatDaysLeft(12)).toBe("12 days left");
    expect(formatDaysLeft(1)).toBe("1 day left");
    expect(formatDaysLeft(0)).toBe("0 days left");
  });
});

describe("given products at both intervals", () => {
  const yearlyStandard = product("Standard", "prod_standard", 19_000, "year");
  const products = [basic, yearlyStandard, standard, product("Premium", "prod_premium", 49_000, "year")];

  it("should keep the monthly cards for the month toggle, in the server's order", () => {
    expect(productsForInterval(products, "month")).toEqual([basic, standard]);
  });

  it("should keep the yearly cards for the year toggle", () => {
    expect(productsForInterval(products, "year").map((card) => card.stripe_id)).toEqual(["price_prod_standard_year", "price_prod_premium_year"]);
  });
});
