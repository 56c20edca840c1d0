import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { SubscriptionStatusCard } from "./SubscriptionStatusCard.tsx";
import { fakeBillingClient, jsonAnswer } from "./billing-test-support.tsx";
import { loadSubscriptionStatus, type LoadedSubscriptionStatus } from "./subscription-status.ts";
import type { BillingClient } from "@atelier/site-api";

afterEach(cleanup);

const NOW = Date.UTC(2026, 0, 10, 12);

function renderCardWith(subscription: LoadedSubscriptionStatus | undefined) {
  render(
    <MemoryRouter>
      <SubscriptionStatusCard subscription={subscription} now={() => NOW} />
    </MemoryRouter>,
  );
}

/** The card with what the dashboard's loader reads through `client`. */
async function renderCard(client: BillingClient) {
  renderCardWith(await loadSubscriptionStatus(client));
}

describe("given the dashboard's subscription card", () => {
  it("should say the subscription is loading while the loader runs", () => {
    renderCardWith(undefined);
    expect(screen.getByText("Loading your subscription")).toBeTruthy();
    expect(screen.getByRole("article", { name: "Subscription" }).dataset.state).toBe("loading");
  });

  it("should show the plan, its state, the renewal date with days left and 'Manage billing'", async () => {
    const expiresAt = Date.UTC(2026, 0, 22, 12) / 1000;
    const { client } = fakeBillingClient({
      "/user/subscription-status": jsonAnswer(200, { has_subscription: true, plan: "Standard", is_active: true, expires_at: expiresAt, subscriptions: [] }),
    });
    await renderCard(client);
    expect(await screen.findByText("Standard")).toBeTruthy();
    expect(screen.getByText("Active")).toBeTruthy();
    expect(screen.getByText("22 January 2026 (12 days left)")).toBeTruthy();
    expect(screen.getByText("Renews")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Manage billing" })).toBeTruthy();
  });

  it("should say when a plan cancelled in the portal ends, not that it renews", async () => {
    const expiresAt = Date.UTC(2026, 0, 22, 12) / 1000;
    const { client } = fakeBillingClient({
      "/user/subscription-status": jsonAnswer(200, { has_subscription: true, plan: "Standard", is_active: true, expires_at: expiresAt, cancel_at_period_end: true, subscriptions: [] }),
    });
    await renderCard(client);
    expect(await screen.findByText("Ends")).toBeTruthy();
    expect(screen.queryByText("Renews")).toBeNull();
    expect(screen.getByText("22 January 2026 (12 days left)")).toBeTruthy();
  });

  it("should show no subscription and 'See plans' when there is none", async () => {
    const { client } = fakeBillingClient({ "/user/subscription-status": jsonAnswer(200, { has_subscription: false, plan: null, is_active: false, expires_at: null, subscriptions: [] }) });
    await renderCard(client);
    expect(await screen.findByText("You have no subscription.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "See plans" }).getAttribute("href")).toBe("/pricing");
  });

  it("should clear the data when the status call fails", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { client } = fakeBillingClient({ "/user/subscription-status": jsonAnswer(500, {}) });
    await renderCard(client);
    expect(await screen.findByText("You have no subscription.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Manage billing" })).toBeNull();
    consoleError.mockRestore();
  });
});
