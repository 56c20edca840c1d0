import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { SubscriptionStatusCard } from "./SubscriptionStatusCard.tsx";
import { fakeBillingClient, jsonAnswer, WithBillingClient } from "./billing-test-support.tsx";
import type { BillingClient } from "@atelier/site-api";

afterEach(cleanup);

const NOW = Date.UTC(2026, 0, 10, 12);

function renderCard(client: BillingClient) {
  render(
    <WithBillingClient client={client}>
      <MemoryRouter>
        <SubscriptionStatusCard now={() => NOW} />
      </MemoryRouter>
    </WithBillingClient>,
  );
}

describe("given the dashboard's subscription card", () => {
  it("should show the plan, its state, the renewal date with days left and 'Manage billing'", async () => {
    const expiresAt = Date.UTC(2026, 0, 22, 12) / 1000;
    const { client } = fakeBillingClient({
      "/user/subscription-status": jsonAnswer(200, { has_subscription: true, plan: "Standard", is_active: true, expires_at: expiresAt, subscriptions: [] }),
    });
    renderCard(client);
    expect(await screen.findByText("Standard")).toBeTruthy();
    expect(screen.getByText("Active")).toBeTruthy();
    expect(screen.getByText("22 January 2026 (12 days left)")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Manage billing" })).toBeTruthy();
  });

  it("should show no subscription and 'See plans' when there is none", async () => {
    const { client } = fakeBillingClient({ "/user/subscription-status": jsonAnswer(200, { has_subscription: false, plan: null, is_active: false, expires_at: null, subscriptions: [] }) });
    renderCard(client);
    expect(await screen.findByText("You have no subscription.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "See plans" }).getAttribute("href")).toBe("/pricing");
  });

  it("should clear the data when the status call fails", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { client } = fakeBillingClient({ "/user/subscription-status": jsonAnswer(500, {}) });
    renderCard(client);
    expect(await screen.findByText("You have no subscription.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Manage billing" })).toBeNull();
    consoleError.mockRestore();
  });
});
