import { act, cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { describe, expect, it, vi } from "vitest";
import {
  authenticatedByPassword,
  reauthenticationRequired,
  unauthenticatedInitial,
  unauthenticatedPendingEmailVerification,
} from "../test-support/allauth-answers.ts";
import { createStubClient } from "../test-support/stub-client.ts";
import { AuthProvider } from "./auth-provider.tsx";
import { AnonymousRoute, AuthChangeRedirector, ProtectedRoute } from "./route-guards.tsx";

function CurrentLocation() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

/** An app's own pages, as Atelier passes them (the package builds none in). */
const appRoutes = { afterLogin: "/dashboard", afterLogout: (currentPath: string) => (currentPath.startsWith("/study/") ? "/upload-subtitles" : "/") };

function renderAt(path: string, status: unknown, routes: React.ReactNode, options: { withAppRoutes?: boolean } = { withAppRoutes: true }) {
  const stub = createStubClient({ status: async () => status });
  render(
    <MemoryRouter initialEntries={[path]}>
      <AuthProvider client={stub.client} gate="none">
        <AuthChangeRedirector {...(options.withAppRoutes ? { routes: appRoutes } : {})} />
        <Routes>{routes}</Routes>
        <CurrentLocation />
      </AuthProvider>
    </MemoryRouter>,
  );
  return stub;
}

const location = () => screen.getByRole("status", { hidden: true, name: "location" }).textContent;

describe("given a ProtectedRoute", () => {
  const routes = (
    <>
      <Route path="/dashboard" element={<ProtectedRoute fallback={<p>Checking…</p>}><h1>Dashboard</h1></ProtectedRoute>} />
      <Route path="/account/login" element={<h1>Login</h1>} />
    </>
  );

  it("sends a signed-out user to /account/login?next=%2Fdashboard", async () => {
    renderAt("/dashboard", unauthenticatedInitial, routes);
    expect(await screen.findByRole("heading", { name: "Login" })).toBeTruthy();
    expect(location()).toBe("/account/login?next=%2Fdashboard");
  });

  it("shows its fallback while the status loads, then the page to a signed-in user", async () => {
    renderAt("/dashboard", authenticatedByPassword, routes);
    expect(screen.getByText("Checking…")).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeTruthy();
  });

  it("hands a signed-out user to onUnauthenticated instead of navigating", async () => {
    const openLoginModal = vi.fn();
    renderAt(
      "/dashboard?tab=plan",
      unauthenticatedInitial,
      <Route path="/dashboard" element={<ProtectedRoute onUnauthenticated={openLoginModal}><h1>Dashboard</h1></ProtectedRoute>} />,
    );
    await act(async () => {});
    expect(openLoginModal).toHaveBeenCalledExactlyOnceWith("/dashboard?tab=plan");
    expect(location()).toBe("/dashboard?tab=plan");
    expect(screen.queryByRole("heading", { name: "Dashboard" })).toBeNull();
  });
});

describe("given an AnonymousRoute", () => {
  const routes = (
    <>
      <Route path="/account/login" element={<AnonymousRoute redirectTo="/dashboard"><h1>Login</h1></AnonymousRoute>} />
      <Route path="/account/signup" element={<AnonymousRoute><h1>Sign up</h1></AnonymousRoute>} />
      <Route path="/dashboard" element={<h1>Dashboard</h1>} />
      <Route path="/" element={<h1>Home</h1>} />
    </>
  );

  it("sends a signed-in user to the page the app gives, else home", async () => {
    renderAt("/account/login", authenticatedByPassword, routes);
    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeTruthy();
    cleanup();
    renderAt("/account/signup", authenticatedByPassword, routes);
    expect(await screen.findByRole("heading", { name: "Home" })).toBeTruthy();
  });

  it("shows the page to a signed-out user", async () => {
    renderAt("/account/login", unauthenticatedInitial, routes);
    expect(await screen.findByRole("heading", { name: "Login" })).toBeTruthy();
  });
});

describe("given an AuthChangeRedirector", () => {
  const routes = <Route path="*" element={null} />;

  it("sends a user who logs in to the app's page after a login, or home without routes", async () => {
    const { emit } = renderAt("/account/login", unauthenticatedInitial, routes);
    await act(async () => {});
    act(() => void emit(authenticatedByPassword));
    expect(location()).toBe("/dashboard");
    cleanup();
    const withoutRoutes = renderAt("/account/login", unauthenticatedInitial, routes, { withAppRoutes: false });
    await act(async () => {});
    act(() => void withoutRoutes.emit(authenticatedByPassword));
    expect(location()).toBe("/");
  });

  it("sends a user who logs in with a next parameter there", async () => {
    const { emit } = renderAt("/account/login?next=%2Faccount%2Femail", unauthenticatedInitial, routes);
    await act(async () => {});
    act(() => void emit(authenticatedByPassword));
    expect(location()).toBe("/account/email");
  });

  it("sends a user logged out on a study session page where the app's routes say", async () => {
    const { emit } = renderAt("/study/7/session", authenticatedByPassword, routes);
    await act(async () => {});
    act(() => void emit(unauthenticatedInitial));
    expect(location()).toBe("/upload-subtitles");
  });

  it("sends a user who must reauthenticate to the reauthentication page, carrying next", async () => {
    const { emit } = renderAt("/account/email", authenticatedByPassword, routes);
    await act(async () => {});
    act(() => void emit(reauthenticationRequired));
    expect(location()).toBe("/account/reauthenticate?next=%2Faccount%2Femail");
  });

  it("sends a user whose flow was updated to the pending flow's page", async () => {
    const { emit } = renderAt("/account/signup", unauthenticatedInitial, routes);
    await act(async () => {});
    act(() => void emit(unauthenticatedPendingEmailVerification));
    expect(location()).toBe("/account/verify-email");
  });

  it("does not move on the first status", async () => {
    renderAt("/account/login", authenticatedByPassword, routes);
    await act(async () => {});
    expect(location()).toBe("/account/login");
  });
});
