import type { ReactElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { CheckoutSuccessPage, checkoutOutcomeFromSearchParams } from "./CheckoutSuccessPage.tsx";

afterEach(cleanup);

function ShowLocation({ name }: { name: string }) {
  const location = useLocation();
  return (
    <>
      <h1>
        {name} at {location.pathname}
      </h1>
      <output data-testid="navigation-state">{JSON.stringify(location.state)}</output>
    </>
  );
}

function renderAt(path: string) {
  return renderWithPricing(path, <ShowLocation name="Pricing" />);
}

function renderWithPricing(path: string, pricing: ReactElement) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/checkout-success" element={<CheckoutSuccessPage />} />
        <Route path="/pricing" element={pricing} />
        <Route path="/stripe-portal-session" element={<ShowLocation name="Portal" />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe("given the subscription result page", () => {
  it("should show the confirmation with a manage-billing button on success", () => {
    renderAt("/checkout-success?success=true&session_id=cs_test_123");
    expect(screen.getByRole("heading", { level: 1, name: "Subscription confirmed" })).toBeTruthy();
    expect(screen.getByText("Reference: cs_test_123")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Manage billing" }));
    expect(screen.getByRole("heading", { name: "Portal at /stripe-portal-session" })).toBeTruthy();
  });

  it("should redirect to /pricing when canceled, telling it so that it shows the cancel text", () => {
    renderAt("/checkout-success?canceled=true");
    expect(screen.getByRole("heading", { name: "Pricing at /pricing" })).toBeTruthy();
    expect(screen.getByTestId("navigation-state").textContent).toBe(JSON.stringify({ checkoutCanceled: true }));
  });

  // `<Navigate>` navigates again when its state changes identity; with /pricing's loader running, the page renders
  // again and a new object each time never let the navigation end (seen in Chromium, ERR_INSUFFICIENT_RESOURCES).
  it("should send the same state object at every render when canceled", () => {
    const statesSeen: unknown[] = [];
    function RecordState() {
      statesSeen.push(useLocation().state);
      return null;
    }
    for (let render = 0; render < 2; render++) {
      const { unmount } = renderWithPricing("/checkout-success?canceled=true", <RecordState />);
      unmount();
    }
    expect(statesSeen.length).toBeGreaterThanOrEqual(2);
    expect(statesSeen.at(-1)).toBe(statesSeen[0]);
  });

  it("should redirect to /pricing when neither success nor canceled is present", () => {
    renderAt("/checkout-success?session_id=cs_test_123");
    expect(screen.getByRole("heading", { name: "Pricing at /pricing" })).toBeTruthy();
    expect(screen.getByTestId("navigation-state").textContent).toBe("null");
  });
});

describe("given the result page's query", () => {
  it("should read success, canceled or none", () => {
    expect(checkoutOutcomeFromSearchParams(new URLSearchParams("success=true"))).toBe("success");
    expect(checkoutOutcomeFromSearchParams(new URLSearchParams("success"))).toBe("success");
    expect(checkoutOutcomeFromSearchParams(new URLSearchParams("canceled=true"))).toBe("canceled");
    expect(checkoutOutcomeFromSearchParams(new URLSearchParams("success=false&canceled=true"))).toBe("canceled");
    expect(checkoutOutcomeFromSearchParams(new URLSearchParams(""))).toBe("none");
  });
});
