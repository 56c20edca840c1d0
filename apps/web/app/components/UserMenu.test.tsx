import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";

vi.mock("@atelier/auth/react", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useAuthStatus: () => ({ loadState: "ready", isAuthenticated: true, user: { display: "Anna Lindqvist" } }),
}));

const { UserMenu } = await import("./UserMenu.tsx");

describe("given the header's user menu opened by a signed-in user", () => {
  afterEach(cleanup);

  it("should close on Escape and put focus back on the menu's button", () => {
    render(
      <MemoryRouter>
        <UserMenu placement="header" />
      </MemoryRouter>,
    );
    const menuButton = screen.getByRole("button", { name: "Anna Lindqvist" });
    fireEvent.click(menuButton);
    const dashboardLink = screen.getByRole("link", { name: "Dashboard" });
    dashboardLink.focus();
    fireEvent.keyDown(dashboardLink, { key: "Escape" });
    expect(menuButton.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("link", { name: "Dashboard" })).toBeNull();
    expect(document.activeElement).toBe(menuButton);
  });
});
