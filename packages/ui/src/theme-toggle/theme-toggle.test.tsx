import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import type { ThemeName } from "./theme-core";
import { ThemeToggle } from "./theme-toggle";

describe("given a ThemeToggle in the light theme", () => {
  it("should offer to switch to dark and report dark when pressed", () => {
    const handleThemeChange = vi.fn();
    render(<ThemeToggle theme="light" onThemeChange={handleThemeChange} />);
    const toggle = screen.getByRole("button", { name: "Switch to dark theme" });
    expect(toggle.getAttribute("data-state")).toBe("light");
    fireEvent.click(toggle);
    expect(handleThemeChange).toHaveBeenCalledWith("dark");
  });

  it("should have no axe violations", async () => {
    const { container } = render(<ThemeToggle theme="light" onThemeChange={() => {}} />);
    await expectNoAxeViolations(container);
  });
});

describe("given a ThemeToggle in the dark theme with translated labels", () => {
  it("should offer to switch to light using the given label", () => {
    const handleThemeChange = vi.fn();
    render(<ThemeToggle theme="dark" onThemeChange={handleThemeChange} switchToLightLabel="Helles Design" />);
    const toggle = screen.getByRole("button", { name: "Helles Design" });
    expect(toggle.getAttribute("data-state")).toBe("dark");
    fireEvent.click(toggle);
    expect(handleThemeChange).toHaveBeenCalledWith("light");
  });
});

describe("given a ThemeToggle controlled by state", () => {
  function ControlledThemeToggle() {
    const [theme, setTheme] = useState<ThemeName>("light");
    return <ThemeToggle theme={theme} onThemeChange={setTheme} />;
  }

  it("should flip its name and data-state on each press", () => {
    render(<ControlledThemeToggle />);
    fireEvent.click(screen.getByRole("button", { name: "Switch to dark theme" }));
    const toggle = screen.getByRole("button", { name: "Switch to light theme" });
    expect(toggle.getAttribute("data-state")).toBe("dark");
    fireEvent.click(toggle);
    expect(screen.getByRole("button", { name: "Switch to dark theme" }).getAttribute("data-state")).toBe("light");
  });
});
