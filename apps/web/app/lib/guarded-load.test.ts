import { afterEach, describe, expect, it, vi } from "vitest";
import { createAllauthClient, type AllauthClient } from "@atelier/auth";
import { createAuthStore } from "@atelier/auth/react";
import { configurationWithProviders, signedInAnswer, signedOutAnswer } from "../providers/provider-test-support.tsx";
import { knownAuthStore } from "../billing/billing-test-support.tsx";
import { loadForSignedInUser, loadForSignedOutVisitor, readSignedIn } from "./guarded-load.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

type StatusResult = Awaited<ReturnType<AllauthClient["getAuthenticationStatus"]>>;

/** A store whose status is not loaded yet: `load()` asks a client whose server answers `status` (or cannot be reached). */
function storeAnswering(status: StatusResult | Error) {
  const requestedPaths: string[] = [];
  const client = createAllauthClient({
    baseUrl: "/_allauth",
    clientType: "browser",
    fetch: async (input) => {
      const path = new URL((input as Request).url).pathname;
      requestedPaths.push(path);
      if (path.endsWith("/config")) return Response.json({ status: 200, data: configurationWithProviders([]) });
      if (status instanceof Error) throw status;
      return Response.json(status, { status: status.status });
    },
  });
  return { store: createAuthStore(client), statusRequests: () => requestedPaths.filter((path) => path.endsWith("/auth/session")).length };
}

describe("given a protected page's loader", () => {
  it("should wait for the status, then load for a signed-in user", async () => {
    const { store } = storeAnswering(signedInAnswer);
    const load = vi.fn(async () => "authenticators");
    expect(await loadForSignedInUser(store, load)).toEqual({ state: "loaded", data: "authenticators" });
    expect(load).toHaveBeenCalledWith(expect.objectContaining({ isAuthenticated: true }));
  });

  it("should ask nothing for a signed-out visitor", async () => {
    const { store } = storeAnswering(signedOutAnswer);
    const load = vi.fn(async () => "authenticators");
    expect(await loadForSignedInUser(store, load)).toEqual({ state: "skipped" });
    expect(load).not.toHaveBeenCalled();
  });

  it("should ask nothing when the status cannot be loaded", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { store } = storeAnswering(new Error("offline"));
    const load = vi.fn(async () => "authenticators");
    expect(await loadForSignedInUser(store, load)).toEqual({ state: "skipped" });
    expect(load).not.toHaveBeenCalled();
  });

  it("should share the status request of a load under way, and not ask again once it is in", async () => {
    const { store, statusRequests } = storeAnswering(signedInAnswer);
    const layoutLoad = store.getState().load();
    await loadForSignedInUser(store, async () => "authenticators");
    await layoutLoad;
    await loadForSignedInUser(store, async () => "authenticators");
    expect(statusRequests()).toBe(1);
  });
});

describe("given the loader of a page for signed-out visitors", () => {
  it("should load for a signed-out visitor, with the status's pending flow", async () => {
    const pendingPasskeySignup = { status: 401, data: { flows: [{ id: "mfa_signup_webauthn", is_pending: true }] }, meta: { is_authenticated: false } } as StatusResult;
    const { store } = storeAnswering(pendingPasskeySignup);
    const load = vi.fn(async () => "options");
    expect(await loadForSignedOutVisitor(store, load)).toEqual({ state: "loaded", data: "options" });
    expect(load).toHaveBeenCalledWith(expect.objectContaining({ pendingFlow: { id: "mfa_signup_webauthn", is_pending: true } }));
  });

  it("should ask nothing for a signed-in user, whom the guard sends to the dashboard", async () => {
    const { store } = storeAnswering(signedInAnswer);
    const load = vi.fn(async () => "options");
    expect(await loadForSignedOutVisitor(store, load)).toEqual({ state: "skipped" });
    expect(load).not.toHaveBeenCalled();
  });
});

/** A store that has not loaded yet, over an identity service that answers `sessionStatus` and counts the calls. */
function unloadedAuthStore(sessionStatus: 200 | 401) {
  const requestedPaths: string[] = [];
  const client = createAllauthClient({
    baseUrl: "http://localhost/_allauth",
    clientType: "browser",
    fetch: async (input) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      requestedPaths.push(path);
      if (path.endsWith("/config")) return Response.json({ status: 200, data: { account: { is_open_for_signup: true, email_verification_by_code_enabled: false, login_by_code_enabled: false } } });
      return sessionStatus === 200
        ? Response.json({ status: 200, data: { user: { id: 7, display: "Ada", email: "ada@example.org", has_usable_password: true }, methods: [] }, meta: { is_authenticated: true } })
        : Response.json({ status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } }, { status: 401 });
    },
  });
  return { store: createAuthStore(client), requestedPaths };
}

describe("given a public page's loader asking whether the visitor is signed in", () => {
  it("should answer from a store that already knows, without a call", async () => {
    await expect(readSignedIn(knownAuthStore(true).store, false)).resolves.toBe(true);
    await expect(readSignedIn(knownAuthStore(false).store, true)).resolves.toBe(false);
  });

  it("should count a browser without the signed-in hint as signed out, without asking the server", async () => {
    const { store, requestedPaths } = unloadedAuthStore(200);
    await expect(readSignedIn(store, false)).resolves.toBe(false);
    expect(requestedPaths).toEqual([]);
  });

  it("should ask the server when told to, and share the request with the root's own load", async () => {
    const { store, requestedPaths } = unloadedAuthStore(200);
    const rootLoad = store.getState().load();
    await expect(readSignedIn(store, true)).resolves.toBe(true);
    await rootLoad;
    expect(requestedPaths.filter((path) => path.endsWith("/auth/session"))).toHaveLength(1);
  });

  it("should answer signed out when the server says so", async () => {
    const { store } = unloadedAuthStore(401);
    await expect(readSignedIn(store, true)).resolves.toBe(false);
  });
});
