import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { Button, ButtonLink } from "./button";

describe("given a default Button", () => {
  it("should render a native button of type button with primary medium classes", () => {
    render(<Button>Save</Button>);
    const button = screen.getByRole("button", { name: "Save" });
    expect(button.tagName).toBe("BUTTON");
    expect(button.getAttribute("type")).toBe("button");
    expect(button.className).toBe("atelier-button atelier-button--primary atelier-button--medium");
  });

  it("should call onClick when clicked", () => {
    const handleClick = vi.fn();
    render(<Button onClick={handleClick}>Save</Button>);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(handleClick).toHaveBeenCalledTimes(1);
  });

  it("should have no axe violations", async () => {
    const { container } = render(<Button>Save</Button>);
    await expectNoAxeViolations(container);
  });
});

describe("given a disabled ghost large Button", () => {
  it("should be disabled, not call onClick, and keep the caller's class", () => {
    const handleClick = vi.fn();
    render(
      <Button variant="ghost" size="large" disabled className="extra" onClick={handleClick}>
        Delete
      </Button>,
    );
    const button = screen.getByRole<HTMLButtonElement>("button", { name: "Delete" });
    expect(button.disabled).toBe(true);
    expect(button.className).toBe("atelier-button atelier-button--ghost atelier-button--large extra");
    fireEvent.click(button);
    expect(handleClick).not.toHaveBeenCalled();
  });
});

describe("given a ButtonLink opening in a new tab", () => {
  it("should render a link styled as a button with rel noopener", () => {
    render(
      <ButtonLink href="https://shop.example/painting-12" target="_blank" variant="secondary">
        I want this!
      </ButtonLink>,
    );
    const link = screen.getByRole("link", { name: "I want this!" });
    expect(link.getAttribute("href")).toBe("https://shop.example/painting-12");
    expect(link.getAttribute("rel")).toBe("noopener");
    expect(link.className).toBe("atelier-button atelier-button--secondary atelier-button--medium");
  });

  it("should keep a rel given by the caller", () => {
    render(
      <ButtonLink href="https://shop.example" target="_blank" rel="noopener noreferrer">
        Shop
      </ButtonLink>,
    );
    expect(screen.getByRole("link", { name: "Shop" }).getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("should have no axe violations", async () => {
    const { container } = render(<ButtonLink href="https://shop.example">I want this!</ButtonLink>);
    await expectNoAxeViolations(container);
  });
});
