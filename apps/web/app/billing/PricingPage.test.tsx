import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createRoutesStub, useLoaderData, useLocation } from "react-router";
import { loadPricing, PricingLoading, PricingPage, type PricingData } from "./PricingPage.tsx";
import { fakeBillingClient, jsonAnswer } from "./billing-test-support.tsx";
import type { BillingClient } from "@atelier/site-api";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const NOW = Date.UTC(2026, 0, 10, 12);

function card(name: string, productId: string, amountInCents: number, interval: "month" | "year") {
  return {
    name,
    description: `${name} plan`,
    features: [`${name} feature`],
    is_default: false,
    stripe_id: `price_${productId}_${interval}`,
    price: { amount: amountInCents / 100, amount_in_cents: amountInCents, interval, product_id: productId },
  };
}

const products = [
  card("Basic", "prod_basic", 900, "month"),
  card("Standard", "prod_standard", 1900, "month"),
  card("Premium", "prod_premium", 4900, "month"),
  card("Basic", "prod_basic", 9000, "year"),
  card("Standard", "prod_standard", 19_000, "year"),
];

const standardSubscriber = {
  has_subscription: true,
  plan: "Standard",
  is_active: true,
  expires_at: NOW / 1000 + 11.5 * 86_400,
  subscriptions: [{ subscription_id: "sub_1", plan: "Standard", is_active: true, expires_at: NOW / 1000 + 11.5 * 86_400, product_id: "prod_standard", amount_in_cents: 1900 }],
};

function Elsewhere() {
  const location = useLocation();
  return (
    <h1>
      Went to {location.pathname}
      {location.search} with {JSON.stringify(location.state)}
    </h1>
  );
}

function LoadedPricing() {
  return <PricingPage data={useLoaderData<PricingData>()} now={() => NOW} />;
}

/** /pricing as its route renders it: the loader (with the visitor's sign-in as the route reads it), its fallback, the page. */
function renderPricing(client: BillingClient, signedIn: boolean | Promise<boolean>, state?: unknown) {
  const Stub = createRoutesStub([
    { path: "/pricing", Component: LoadedPricing, loader: () => loadPricing(client, signedIn), HydrateFallback: PricingLoading },
    { path: "*", Component: Elsewhere },
  ]);
  render(<Stub initialEntries={[{ pathname: "/pricing", state }]} />);
}

const cardNamed = (name: string) => screen.getByRole("article", { name });

describe("given a signed-out visitor on /pricing", () => {
  it("should show the monthly plans by default with 'Choose plan' and no status call", async () => {
    const { client, requestedPaths } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }) });
    renderPricing(client, false);
    expect(await screen.findAllByRole("article")).toHaveLength(3);
    expect(screen.getByRole("button", { name: "Monthly" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getAllByRole("button", { name: "Choose plan" })).toHaveLength(3);
    expect(requestedPaths).toEqual(["/user/pricing"]);
  });

  it("should show the yearly plans after the toggle", async () => {
    const { client } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }) });
    renderPricing(client, false);
    await screen.findAllByRole("article");
    fireEvent.click(screen.getByRole("button", { name: "Yearly" }));
    expect(screen.getByRole("button", { name: "Yearly" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getAllByRole("article")).toHaveLength(2);
    expect(within(cardNamed("Basic")).getByText("/ year", { exact: false })).toBeTruthy();
  });

  it("should send a choice to sign-in, coming back to /pricing", async () => {
    const { client } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }) });
    renderPricing(client, false);
    await screen.findAllByRole("article");
    fireEvent.click(within(cardNamed("Basic")).getByRole("button", { name: "Choose plan" }));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("Went to /account/login?next=/pricing");
  });

  it("should show 'Error: {message}' when the pricing fails", async () => {
    const { client } = fakeBillingClient({ "/user/pricing": () => new Response("", { status: 503, statusText: "Service Unavailable" }) });
    renderPricing(client, false);
    expect((await screen.findByRole("alert")).textContent).toBe("Error: the server answered 503 Service Unavailable.");
  });

  it("should keep a failed checkout's message visible, while the plans load and after", async () => {
    const { client } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }) });
    renderPricing(client, false, { checkoutError: "Failed to create checkout session: No such price" });
    expect((await screen.findByRole("alert")).textContent).toBe("Failed to create checkout session: No such price");
    await screen.findAllByRole("article");
    expect(screen.getByRole("alert").textContent).toBe("Failed to create checkout session: No such price");
  });

  it("should show the spec's cancel text after a cancelled checkout, and not otherwise", async () => {
    const { client } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }) });
    renderPricing(client, false, { checkoutCanceled: true });
    expect((await screen.findByRole("status")).textContent).toBe("Order canceled -- continue to shop around and checkout when you're ready.");
    await screen.findAllByRole("article");
    expect(screen.queryByRole("alert")).toBeNull();
    cleanup();
    renderPricing(client, false);
    await screen.findAllByRole("article");
    expect(screen.queryByText(/Order canceled/)).toBeNull();
  });

  it("should show 'Loading the plans' until the plans are in", async () => {
    let answerPricing: () => void = () => undefined;
    const pricingAnswered = new Promise<void>((resolve) => (answerPricing = resolve));
    const { client } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }) });
    const slowClient: BillingClient = { ...client, loadPricing: async () => pricingAnswered.then(() => client.loadPricing()) };
    renderPricing(slowClient, false);
    expect(await screen.findByText("Loading the plans")).toBeTruthy();
    expect(screen.queryByRole("article")).toBeNull();
    answerPricing();
    expect(await screen.findAllByRole("article")).toHaveLength(3);
    expect(screen.queryByText("Loading the plans")).toBeNull();
  });
});

describe("given a signed-in visitor whose sign-in is still being checked", () => {
  it("should wait for it, then ask for the subscription and show the current plan", async () => {
    let confirmSignIn: (signedIn: boolean) => void = () => undefined;
    const signedIn = new Promise<boolean>((resolve) => (confirmSignIn = resolve));
    const { client, requestedPaths } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }), "/user/subscription-status": jsonAnswer(200, standardSubscriber) });
    renderPricing(client, signedIn);
    await screen.findByText("Loading the plans");
    expect(requestedPaths).toEqual(["/user/pricing"]);
    confirmSignIn(true);
    await screen.findAllByRole("article");
    expect(cardNamed("Standard").dataset.state).toBe("current");
    expect(requestedPaths).toEqual(["/user/pricing", "/user/subscription-status"]);
  });
});

describe("given a subscriber to the Standard plan on /pricing", () => {
  it("should show the current plan with its days left, an upgrade and a downgrade", async () => {
    const { client } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }), "/user/subscription-status": jsonAnswer(200, standardSubscriber) });
    renderPricing(client, true);
    await screen.findAllByRole("article");
    const standard = cardNamed("Standard");
    expect(standard.dataset.state).toBe("current");
    expect(within(standard).getByText("Current plan")).toBeTruthy();
    expect(within(standard).getByText("12 days left")).toBeTruthy();
    expect(within(cardNamed("Premium")).getByRole("button", { name: "Upgrade Plan" })).toBeTruthy();
    expect(within(cardNamed("Basic")).getByRole("button", { name: "Downgrade Plan" })).toBeTruthy();
  });

  it("should take an upgrade to the billing portal with the price id", async () => {
    const { client } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }), "/user/subscription-status": jsonAnswer(200, standardSubscriber) });
    renderPricing(client, true);
    await screen.findAllByRole("article");
    fireEvent.click(screen.getByRole("button", { name: "Upgrade Plan" }));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe('Went to /stripe-portal-session with {"priceId":"price_prod_premium_month"}');
  });
});

describe("given a signed-in user without a subscription on /pricing", () => {
  it("should take a choice to /checkout-session with the price id, even when the status call fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { client } = fakeBillingClient({ "/user/pricing": jsonAnswer(200, { products }), "/user/subscription-status": jsonAnswer(500, {}) });
    renderPricing(client, true);
    await screen.findAllByRole("article");
    fireEvent.click(within(cardNamed("Premium")).getByRole("button", { name: "Choose plan" }));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe('Went to /checkout-session with {"priceId":"price_prod_premium_month"}');
  });
});
