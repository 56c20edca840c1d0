import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";

const { authStatus } = vi.hoisted(() => ({ authStatus: { current: { loadState: "ready", isAuthenticated: false } } }));
vi.mock("@atelier/auth/react", async (importOriginal) => ({ ...(await importOriginal<object>()), useAuthStatus: () => authStatus.current }));

const { SignInStepRoute } = await import("./SignInStepRoute.tsx");

function renderStep() {
  return render(
    <MemoryRouter initialEntries={["/account/authenticate/totp"]}>
      <Routes>
        <Route path="/account/authenticate/totp" element={<SignInStepRoute>Enter your code</SignInStepRoute>} />
        <Route path="/dashboard" element={<p>Dashboard</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe("given the page of a sign-in step", () => {
  afterEach(cleanup);

  it("should send a user who arrives signed in to the dashboard", () => {
    authStatus.current = { loadState: "ready", isAuthenticated: true };
    renderStep();
    expect(screen.getByText("Dashboard")).toBeTruthy();
  });

  it("should leave the navigation to the site's redirector once the step signs the visitor in", () => {
    authStatus.current = { loadState: "ready", isAuthenticated: false };
    const { rerender } = renderStep();
    expect(screen.getByText("Enter your code")).toBeTruthy();
    authStatus.current = { loadState: "ready", isAuthenticated: true };
    rerender(
      <MemoryRouter initialEntries={["/account/authenticate/totp"]}>
        <Routes>
          <Route path="/account/authenticate/totp" element={<SignInStepRoute>Enter your code</SignInStepRoute>} />
          <Route path="/dashboard" element={<p>Dashboard</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.queryByText("Dashboard")).toBeNull();
    expect(screen.queryByText("Enter your code")).toBeNull();
  });
});
