import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { StripePortalSessionPage } from "./StripePortalSessionPage.tsx";

afterEach(cleanup);

describe("given the billing portal page", () => {
  it("should submit a form post with the CSRF field to the portal-session call on arrival, once", () => {
    document.cookie = "csrftoken=csrf-from-cookie";
    const submitForm = vi.fn();
    render(<StripePortalSessionPage submitForm={submitForm} />);
    expect(submitForm).toHaveBeenCalledTimes(1);
    const form = submitForm.mock.calls[0]![0] as HTMLFormElement;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/user/create-portal-session");
    expect((form.elements.namedItem("csrfmiddlewaretoken") as HTMLInputElement).value).toBe("csrf-from-cookie");
  });

  it("should offer a button to open the portal by hand", () => {
    render(<StripePortalSessionPage submitForm={vi.fn()} />);
    expect(screen.getByRole("button", { name: "Open the billing portal" }).getAttribute("type")).toBe("submit");
  });
});
