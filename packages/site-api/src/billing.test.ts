import { describe, expect, it } from "vitest";
import { BILLING_PATHS, createBillingClient, pricingErrorText } from "./billing.ts";
import { NO_SUBSCRIPTION } from "./billing-types.ts";
import { json, recordingFetch, siteHttpOver } from "./test-support/recording-fetch.ts";

const failingNetwork: typeof fetch = async () => {
  throw new TypeError("Failed to fetch");
};

const monthlyBasic = {
  name: "Basic",
  description: "For a start",
  features: ["One course"],
  is_default: true,
  stripe_id: "price_basic_month",
  price: { amount: 9, amount_in_cents: 900, interval: "month", product_id: "prod_basic" },
};

const activeStatus = {
  has_subscription: true,
  plan: "Basic",
  is_active: true,
  expires_at: 1_800_000_000,
  subscriptions: [{ subscription_id: "sub_1", plan: "Basic", is_active: true, expires_at: 1_800_000_000, product_id: "prod_basic", amount_in_cents: 900 }],
};

describe("given the billing client", () => {

  describe("when it loads the pricing", () => {
    it("should GET /user/pricing and answer the products", async () => {
      const { requests, fetchImplementation } = recordingFetch(() => json(200, { products: [monthlyBasic] }));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).loadPricing()).toEqual({ status: "ok", data: [monthlyBasic] });
      expect(new URL(requests[0]!.url).pathname).toBe("/user/pricing");
      expect(requests[0]!.method).toBe("GET");
    });

    it("should answer a message for 'Error: {message}' when the server fails", async () => {
      const { fetchImplementation } = recordingFetch(() => new Response("boom", { status: 500, statusText: "Internal Server Error" }));
      const result = await createBillingClient(siteHttpOver(fetchImplementation)).loadPricing();
      expect(result).toEqual({ status: "error", message: "the server answered 500 Internal Server Error.", httpStatus: 500 });
      expect(result.status === "error" && pricingErrorText(result.message)).toBe("Error: the server answered 500 Internal Server Error.");
    });

    it("should answer the network's message when the call cannot be made", async () => {
      expect(await createBillingClient(siteHttpOver(failingNetwork)).loadPricing()).toEqual({ status: "error", message: "Failed to fetch" });
    });

    it("should answer an error when the products do not have the contract's shape", async () => {
      const { fetchImplementation } = recordingFetch(() => json(200, { products: [{ name: "Basic" }] }));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).loadPricing()).toMatchObject({ status: "error" });
    });
  });

  describe("when it loads the subscription status", () => {
    it("should GET /user/subscription-status with credentials", async () => {
      const { requests, fetchImplementation } = recordingFetch(() => json(200, activeStatus));
      // A server that does not send `cancel_at_period_end` (the contract has no such field) renews.
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).loadSubscriptionStatus()).toEqual({
        status: "ok",
        data: { ...activeStatus, cancel_at_period_end: false, subscriptions: [{ ...activeStatus.subscriptions[0], cancel_at_period_end: false }] },
      });
      expect(new URL(requests[0]!.url).pathname).toBe(BILLING_PATHS.subscriptionStatus);
      expect(requests[0]!.credentials).toBe("include");
    });

    it("should read Atelier's `cancel_at_period_end` of a plan cancelled in the portal", async () => {
      const cancelled = { ...activeStatus, cancel_at_period_end: true, subscriptions: [{ ...activeStatus.subscriptions[0], cancel_at_period_end: true }] };
      const { fetchImplementation } = recordingFetch(() => json(200, cancelled));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).loadSubscriptionStatus()).toEqual({ status: "ok", data: cancelled });
    });

    it("should treat 401 (signed out) as no subscription, not an error", async () => {
      const { fetchImplementation } = recordingFetch(() => json(401, { detail: "Not signed in" }));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).loadSubscriptionStatus()).toEqual({ status: "ok", data: NO_SUBSCRIPTION });
    });

    it("should answer an error on any other failure, so the screens clear the data", async () => {
      const { fetchImplementation } = recordingFetch(() => json(500, {}));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).loadSubscriptionStatus()).toMatchObject({ status: "error", httpStatus: 500 });
      expect(await createBillingClient(siteHttpOver(failingNetwork)).loadSubscriptionStatus()).toMatchObject({ status: "error" });
    });
  });

  describe("when it creates a checkout session", () => {
    it("should POST {priceId} to /user/create-checkout-session with the CSRF header", async () => {
      const { requests, bodies, fetchImplementation } = recordingFetch(() => json(200, { url: "https://checkout.example/cs_1" }));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).createCheckoutSession("price_basic_month")).toEqual({ status: "ok", data: { url: "https://checkout.example/cs_1" } });
      expect(new URL(requests[0]!.url).pathname).toBe("/user/create-checkout-session");
      expect(requests[0]!.method).toBe("POST");
      expect(requests[0]!.headers.get("X-CSRFToken")).toBe("csrf-from-cookie");
      expect(requests[0]!.headers.get("content-type")).toContain("application/json");
      expect(bodies[0]).toEqual({ priceId: "price_basic_month" });
    });

    it("should answer 'Failed to create checkout session: {body}' with the server's text", async () => {
      const { fetchImplementation } = recordingFetch(() => json(400, { error: "No such price: price_gone" }));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).createCheckoutSession("price_gone")).toEqual({
        status: "error",
        message: 'Failed to create checkout session: {"error":"No such price: price_gone"}',
        httpStatus: 400,
      });
    });

    it("should fall back to the status when the failing answer has no body", async () => {
      const { fetchImplementation } = recordingFetch(() => new Response(null, { status: 403, statusText: "Forbidden" }));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).createCheckoutSession("price_1")).toMatchObject({ message: "Failed to create checkout session: 403 Forbidden" });
    });

    it("should name the network's failure", async () => {
      expect(await createBillingClient(siteHttpOver(failingNetwork)).createCheckoutSession("price_1")).toEqual({ status: "error", message: "Failed to create checkout session: Failed to fetch" });
    });

    it("should treat an answer without a url as a failure", async () => {
      const { fetchImplementation } = recordingFetch(() => json(200, { id: "cs_1" }));
      expect(await createBillingClient(siteHttpOver(fetchImplementation)).createCheckoutSession("price_1")).toMatchObject({ status: "error", message: 'Failed to create checkout session: {"id":"cs_1"}' });
    });
  });
});
