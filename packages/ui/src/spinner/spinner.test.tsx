import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { Spinner } from "./spinner";

describe("given a default Spinner", () => {
  it("should be a status named Loading", () => {
    render(<Spinner />);
    const status = screen.getByRole("status");
    expect(status.textContent).toBe("Loading");
    expect(status.className).toBe("atelier-spinner atelier-spinner--medium");
    expect(status.querySelector(".atelier-spinner__circle")?.getAttribute("aria-hidden")).toBe("true");
    expect(screen.getByText("Loading").className).toBe("atelier-visually-hidden");
  });

  it("should have no axe violations", async () => {
    const { container } = render(<Spinner />);
    await expectNoAxeViolations(container);
  });
});

describe("given a large Spinner with a custom label", () => {
  it("should announce the custom label", () => {
    render(<Spinner size="large" label="Loading paintings" />);
    const status = screen.getByRole("status");
    expect(status.textContent).toBe("Loading paintings");
    expect(status.className).toBe("atelier-spinner atelier-spinner--large");
  });
});
