import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub, useLoaderData } from "react-router";
import type { AllauthClient } from "@atelier/auth";
import { PROVIDER_CALLBACK_STATUS_TEXT, ProviderCallbackPage, ProviderCallbackResolving, resolveProviderCallback, type ProviderCallbackData } from "./ProviderCallbackPage.tsx";
import { ShowLocation, deferred, signedInAnswer, signedOutAnswer } from "./provider-test-support.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type StatusResult = Awaited<ReturnType<AllauthClient["getAuthenticationStatus"]>>;

function pendingFlowAnswer(flow: Record<string, unknown>): StatusResult {
  return { status: 401, data: { flows: [{ id: "login" }, flow] }, meta: { is_authenticated: false } } as StatusResult;
}

function CallbackRoute() {
  return <ProviderCallbackPage data={useLoaderData() as ProviderCallbackData} />;
}

/** The page as its route runs it: the loader (which redirects), its fallback, then the page. */
function renderAt(path: string, status: () => Promise<StatusResult>) {
  const client = { getAuthenticationStatus: vi.fn(status) };
  const Stub = createRoutesStub([
    {
      path: "/account/provider/callback",
      Component: CallbackRoute,
      HydrateFallback: ProviderCallbackResolving,
      loader: ({ request }) => resolveProviderCallback(client, new URL(request.url)),
    },
    { path: "/dashboard", Component: () => <ShowLocation name="Dashboard" /> },
    { path: "/account/login", Component: () => <ShowLocation name="Login" /> },
    { path: "/account/providers", Component: () => <ShowLocation name="Providers" /> },
    { path: "/account/*", Component: () => <ShowLocation name="Flow page" /> },
  ]);
  render(<Stub initialEntries={[path]} />);
  return { client };
}

describe("given the provider callback page with an error parameter", () => {
  it("should show 'Third-Party Login Failure', 'Something went wrong.' and Continue to the login page, without asking the status", async () => {
    const { client } = renderAt("/account/provider/callback?error=cancelled&error_process=login", async () => signedOutAnswer as StatusResult);
    expect(await screen.findByRole("heading", { level: 1, name: "Third-Party Login Failure" })).toBeTruthy();
    expect(screen.getByText("Something went wrong.")).toBeTruthy();
    expect(screen.getByText("The sign-in was cancelled at the provider.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Continue" }).getAttribute("href")).toBe("/account/login");
    expect(client.getAuthenticationStatus).not.toHaveBeenCalled();
  });

  it("should continue to the accounts page after a failed connection", async () => {
    renderAt("/account/provider/callback?error=connected_other&error_process=connect", async () => signedInAnswer as StatusResult);
    expect(await screen.findByText("The third-party account is already connected to a different account.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Continue" }).getAttribute("href")).toBe("/account/providers");
  });
});

describe("given the provider callback page without an error", () => {
  it("should say what it is doing while the status loads", async () => {
    const status = deferred<StatusResult>();
    renderAt("/account/provider/callback", () => status.promise);
    expect(screen.getByRole("status").textContent).toBe(PROVIDER_CALLBACK_STATUS_TEXT);
    status.resolve(signedOutAnswer as StatusResult);
    expect(await screen.findByRole("heading", { name: "Login at /account/login" })).toBeTruthy();
  });

  it("should open the dashboard once signed in", async () => {
    const { client } = renderAt("/account/provider/callback", async () => signedInAnswer as StatusResult);
    expect(await screen.findByRole("heading", { name: "Dashboard at /dashboard" })).toBeTruthy();
    expect(client.getAuthenticationStatus).toHaveBeenCalled();
  });

  it("should open the provider sign-up when the provider gave no usable e-mail address", async () => {
    renderAt("/account/provider/callback", async () => pendingFlowAnswer({ id: "provider_signup", is_pending: true, provider: { id: "local", name: "Test ID (local)", flows: ["provider_redirect"] } }));
    expect(await screen.findByRole("heading", { name: "Flow page at /account/provider/signup" })).toBeTruthy();
  });

  it("should open the user's strongest second factor when one is pending", async () => {
    renderAt("/account/provider/callback", async () => pendingFlowAnswer({ id: "mfa_authenticate", is_pending: true, types: ["recovery_codes", "totp"] }));
    expect(await screen.findByRole("heading", { name: "Flow page at /account/authenticate/totp" })).toBeTruthy();
  });

  it("should open the login page when nothing is pending", async () => {
    renderAt("/account/provider/callback", async () => signedOutAnswer as StatusResult);
    expect(await screen.findByRole("heading", { name: "Login at /account/login" })).toBeTruthy();
  });

  it("should show the failure when the status cannot be asked", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    renderAt("/account/provider/callback", async () => {
      throw new Error("offline");
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Third-Party Login Failure" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Continue" }).getAttribute("href")).toBe("/account/login");
  });

  it("should say 'Unknown path for flow' for a pending flow without a page", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    renderAt("/account/provider/callback", async () => pendingFlowAnswer({ id: "mfa_trust", is_pending: true }));
    expect((await screen.findByRole("alert")).textContent).toBe("Unknown path for flow");
  });
});
