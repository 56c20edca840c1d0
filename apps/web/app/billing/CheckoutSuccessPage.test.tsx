import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { CheckoutSuccessPage, checkoutOutcomeFromSearchParams } from "./CheckoutSuccessPage.tsx";

afterEach(cleanup);

function ShowLocation({ name }: { name: string }) {
  const location = useLocation();
  return (
    <h1>
      {name} at {location.pathname}
    </h1>
  );
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/checkout-success" element={<CheckoutSuccessPage />} />
        <Route path="/pricing" element={<ShowLocation name="Pricing" />} />
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

  it("should show the exact cancel text when canceled", () => {
    renderAt("/checkout-success?canceled=true");
    expect(screen.getByText("Order canceled -- continue to shop around and checkout when you're ready.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "See the plans" }).getAttribute("href")).toBe("/pricing");
  });

  it("should redirect to /pricing when neither success nor canceled is present", () => {
    renderAt("/checkout-success?session_id=cs_test_123");
    expect(screen.getByRole("heading", { name: "Pricing at /pricing" })).toBeTruthy();
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
