import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { Badge } from "./badge";

describe("given a Badge without a tone", () => {
  it("should use the neutral tone", () => {
    render(<Badge>New</Badge>);
    const badge = screen.getByText("New");
    expect(badge.className).toBe("atelier-badge atelier-badge--neutral");
    expect(badge.getAttribute("data-tone")).toBe("neutral");
  });
});

describe("given a danger Badge reading Sold", () => {
  it("should use the danger class and keep its text for screen readers", () => {
    render(<Badge tone="danger">Sold</Badge>);
    const badge = screen.getByText("Sold");
    expect(badge.className).toBe("atelier-badge atelier-badge--danger");
    expect(badge.getAttribute("data-tone")).toBe("danger");
  });

  it("should have no axe violations", async () => {
    const { container } = render(
      <p>
        Evening on the lake <Badge tone="danger">Sold</Badge> <Badge tone="success">Available</Badge>
      </p>,
    );
    await expectNoAxeViolations(container);
  });
});
