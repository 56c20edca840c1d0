import { afterEach, describe, expect, it, vi } from "vitest";
import { createAllauthClient } from "@atelier/auth";
import { createAuthStore } from "@atelier/auth/react";
import { NO_SUBSCRIPTION } from "@atelier/site-api";
import { fakeBillingClient, jsonAnswer, knownAuthStore } from "./billing-test-support.tsx";
import { loadSubscriptionStatus, readSignedIn } from "./subscription-status.ts";

afterEach(() => {
  vi.restoreAllMocks();
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

describe("given a billing loader asking whether the visitor is signed in", () => {
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

describe("given the subscription status loader", () => {
  it("should clear the status and log why when the call fails (spec §8)", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { client } = fakeBillingClient({ "/user/subscription-status": jsonAnswer(500, {}) });
    await expect(loadSubscriptionStatus(client)).resolves.toEqual({ loadState: "error", status: NO_SUBSCRIPTION });
    expect(consoleError).toHaveBeenCalledOnce();
  });
});
