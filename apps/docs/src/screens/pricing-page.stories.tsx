import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, within } from "storybook/test";
import type { PricingProduct, SubscriptionStatus } from "@atelier/site-api";
import { fakeBillingClient, jsonAnswer } from "../../../web/app/billing/billing-test-support.tsx";
import type { PricingNavigationState } from "../../../web/app/billing/billing-meta.ts";
import { loadPricing, PricingLoading, PricingPage } from "../../../web/app/billing/PricingPage.tsx";
import { RouteStory } from "./route-story.tsx";
import "../../../web/app/app.css";

// A fixed clock, so the days left do not depend on the day the stories run.
const NOW = Date.UTC(2026, 0, 10, 12);

function plan(name: string, productId: string, amountInCents: number, interval: "month" | "year", features: string[]): PricingProduct {
  return {
    name,
    description: `${name}: ${features[0]?.toLowerCase() ?? "flashcards"}.`,
    features,
    is_default: productId === "plus",
    stripe_id: `price_dev_${productId}_${interval}`,
    price: { amount: amountInCents / 100, amount_in_cents: amountInCents, interval, product_id: productId },
  };
}

const products = [
  plan("Basic", "basic", 400, "month", ["Up to 5 private flashcard decks"]),
  plan("Plus", "plus", 900, "month", ["Up to 50 private flashcard decks", "Export your own decks as CSV or Anki files"]),
  plan("Studio", "studio", 1900, "month", ["Unlimited private flashcard decks", "Export any shared deck as CSV or Anki files"]),
  plan("Basic", "basic", 4000, "year", ["Up to 5 private flashcard decks"]),
  plan("Plus", "plus", 9000, "year", ["Up to 50 private flashcard decks", "Export your own decks as CSV or Anki files"]),
  plan("Studio", "studio", 19_000, "year", ["Unlimited private flashcard decks", "Export any shared deck as CSV or Anki files"]),
];

const plusSubscriber: SubscriptionStatus = {
  has_subscription: true,
  plan: "Plus",
  is_active: true,
  expires_at: NOW / 1000 + 11.5 * 86_400,
  cancel_at_period_end: false,
  subscriptions: [{ subscription_id: "sub_1", plan: "Plus", is_active: true, expires_at: NOW / 1000 + 11.5 * 86_400, cancel_at_period_end: false, product_id: "plus", amount_in_cents: 900 }],
};

interface PricingStoryArgs {
  /** The visitor's subscription; undefined for a signed-out visitor (the loader then asks for none). */
  subscription?: SubscriptionStatus;
  pricingFails?: boolean;
  /** The loader never finishes: the route's first-visit fallback. */
  loading?: boolean;
  /** The navigation state /pricing is reached with: from a cancelled checkout, or a failed one. */
  arrival?: PricingNavigationState;
}

const meta = {
  title: "Screens/Pricing/Page",
  render: ({ subscription, pricingFails = false, loading = false, arrival }) => {
    const { client } = fakeBillingClient({
      "/user/pricing": pricingFails ? () => new Response("", { status: 503, statusText: "Service Unavailable" }) : jsonAnswer(200, { products }),
      "/user/subscription-status": jsonAnswer(200, subscription ?? {}),
    });
    return (
      <RouteStory
        path="/pricing"
        initialEntry={{ pathname: "/pricing", state: arrival }}
        load={() => (loading ? new Promise<never>(() => undefined) : loadPricing(client, subscription !== undefined))}
        Screen={({ data }) => <PricingPage data={data} now={() => NOW} />}
        Loading={PricingLoading}
        wrap={(screen) => <main className="site-main">{screen}</main>}
      />
    );
  },
  args: {},
  parameters: { layout: "fullscreen" },
  globals: { viewport: { value: "laptop1366" } },
} satisfies Meta<PricingStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Visitor: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await expect(await page.findAllByRole("button", { name: "Choose plan" })).toHaveLength(3);
    await expect(page.getByRole("button", { name: "Monthly" })).toHaveAttribute("aria-pressed", "true");
  },
};

export const Subscriber: Story = {
  args: { subscription: plusSubscriber },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    const plus = await page.findByRole("article", { name: "Plus" });
    await expect(within(plus).getByText("Current plan")).toBeVisible();
    await expect(within(plus).getByText("12 days left")).toBeVisible();
    await expect(within(page.getByRole("article", { name: "Studio" })).getByRole("button", { name: "Upgrade Plan" })).toBeVisible();
    // Plus yearly is another price: an upgrade, not the current plan (issue 13).
    await userEvent.click(page.getByRole("button", { name: "Yearly" }));
    await expect(within(page.getByRole("article", { name: "Plus" })).getByRole("button", { name: "Upgrade Plan" })).toBeVisible();
    await expect(page.queryByText("Current plan")).toBeNull();
  },
};

export const SubscriberPhoneDark: Story = {
  args: { subscription: plusSubscriber },
  globals: { viewport: { value: "phone390" }, theme: "dark" },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText("Current plan")).toBeVisible();
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);
  },
};

// Spec §2.3: /checkout-success sends a cancelled checkout here, with the cancel text above the plans.
export const AfterCanceledCheckoutPhoneDark: Story = {
  args: { arrival: { checkoutCanceled: true } },
  globals: { viewport: { value: "phone390" }, theme: "dark" },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await expect(await page.findAllByRole("button", { name: "Choose plan" })).toHaveLength(3);
    await expect(page.getByText("Order canceled -- continue to shop around and checkout when you're ready.")).toHaveAttribute("role", "status");
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);
  },
};

export const FailedCheckout: Story = {
  args: { arrival: { checkoutError: "Failed to create checkout session: No such price" } },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await expect(await page.findAllByRole("button", { name: "Choose plan" })).toHaveLength(3);
    await expect(page.getByRole("alert").textContent).toBe("Failed to create checkout session: No such price");
  },
};

export const Loading: Story = {
  args: { loading: true },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText("Loading the plans")).toBeInTheDocument();
  },
};

export const PricingFails: Story = {
  args: { pricingFails: true },
  play: async ({ canvasElement }) => {
    await expect((await within(canvasElement).findByRole("alert")).textContent).toBe("Error: the server answered 503 Service Unavailable.");
  },
};
