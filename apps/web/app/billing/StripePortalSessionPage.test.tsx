import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { StripePortalSessionPage } from "./StripePortalSessionPage.tsx";

afterEach(cleanup);

function renderPage(submitForm: (form: HTMLFormElement) => void, state?: unknown) {
  render(
    <MemoryRouter initialEntries={[{ pathname: "/stripe-portal-session", state }]}>
      <StripePortalSessionPage submitForm={submitForm} />
    </MemoryRouter>,
  );
}

describe("given the billing portal page", () => {
  it("should submit a form post with the CSRF field to the portal-session call on arrival, once", () => {
    document.cookie = "csrftoken=csrf-from-cookie";
    const submitForm = vi.fn();
    renderPage(submitForm);
    expect(submitForm).toHaveBeenCalledTimes(1);
    const form = submitForm.mock.calls[0]![0] as HTMLFormElement;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/user/create-portal-session");
    expect((form.elements.namedItem("csrfmiddlewaretoken") as HTMLInputElement).value).toBe("csrf-from-cookie");
    expect(form.elements.namedItem("price_id")).toBeNull();
  });

  it("should carry the plan card's price, so the portal opens on that change", () => {
    const submitForm = vi.fn();
    renderPage(submitForm, { priceId: "price_plus_year" });
    const form = submitForm.mock.calls[0]![0] as HTMLFormElement;
    expect((form.elements.namedItem("price_id") as HTMLInputElement).value).toBe("price_plus_year");
  });

  it("should offer a button to open the portal by hand", () => {
    renderPage(vi.fn());
    expect(screen.getByRole("button", { name: "Open the billing portal" }).getAttribute("type")).toBe("submit");
  });
});
