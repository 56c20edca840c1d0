import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { CheckoutSessionPage } from "./CheckoutSessionPage.tsx";
import { readCheckoutErrorFromState } from "./billing-meta.ts";
import { BillingClientProvider } from "./billing-client.ts";
import { fakeBillingClient, jsonAnswer } from "./billing-test-support.tsx";
import type { BillingClient } from "@atelier/site-api";

afterEach(cleanup);

function PricingStandIn() {
  const location = useLocation();
  return <p role="alert">{readCheckoutErrorFromState(location.state) ?? "Pricing without error"}</p>;
}

function renderCheckout(client: BillingClient, state: unknown, assignLocation: (url: string) => void) {
  render(
    <BillingClientProvider client={client}>
      <MemoryRouter initialEntries={[{ pathname: "/checkout-session", state }]}>
        <Routes>
          <Route path="/checkout-session" element={<CheckoutSessionPage assignLocation={assignLocation} />} />
          <Route path="/pricing" element={<PricingStandIn />} />
        </Routes>
      </MemoryRouter>
    </BillingClientProvider>,
  );
}

describe("given the checkout-session page", () => {
  it("should create the session for the price in navigation state and send the browser to its url", async () => {
    const { client, requestedPaths } = fakeBillingClient({ "/user/create-checkout-session": jsonAnswer(200, { url: "https://checkout.example/cs_1" }) });
    const assignLocation = vi.fn();
    renderCheckout(client, { priceId: "price_basic_month" }, assignLocation);
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith("https://checkout.example/cs_1"));
    expect(requestedPaths).toEqual(["/user/create-checkout-session"]);
  });

  it("should go back to /pricing with 'Failed to create checkout session: {body}'", async () => {
    const { client } = fakeBillingClient({ "/user/create-checkout-session": () => new Response("No such price", { status: 400 }) });
    const assignLocation = vi.fn();
    renderCheckout(client, { priceId: "price_gone" }, assignLocation);
    expect((await screen.findByRole("alert")).textContent).toBe("Failed to create checkout session: No such price");
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("should go back to /pricing without calling the server when no price id arrived", async () => {
    const { client, requestedPaths } = fakeBillingClient({});
    renderCheckout(client, null, vi.fn());
    expect((await screen.findByRole("alert")).textContent).toBe("Pricing without error");
    expect(requestedPaths).toEqual([]);
  });
});
