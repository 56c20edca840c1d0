// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { createMemorySessionTokenStorage } from "./browser-environment.ts";
import { createAllauthClient } from "./client.ts";
import { AllauthNetworkError, AllauthUnexpectedResponseError } from "./errors.ts";
import type { AuthenticationResponse } from "./schemas.ts";
import {
  authenticatedByPassword,
  authenticatedByPasswordAndTotp,
  configuration,
  conflict,
  emailAddresses,
  emailVerificationInfo,
  forbidden,
  passwordMismatch,
  reauthenticationRequired,
  sessionGone,
  statusOk,
  tooManyRequests,
  unauthenticatedInitial,
  unauthenticatedPendingLoginByCode,
  userSessions,
} from "./test-support/allauth-answers.ts";
import { createFakeFetch } from "./test-support/fake-fetch.ts";

const BASE = "https://api.example.com/_allauth";
const BROWSER = "/_allauth/browser/v1";

function createBrowserClient(answers: Parameters<typeof createFakeFetch>[0], csrfToken: string | null = "csrf-secret") {
  const fake = createFakeFetch(answers);
  const client = createAllauthClient({
    baseUrl: BASE,
    clientType: "browser",
    fetch: fake.fetch,
    readCsrfToken: () => csrfToken ?? undefined,
  });
  return { client, requests: fake.requests };
}

describe("given a browser-mode client", () => {
  it("sends each call to its URL with its method and JSON body", async () => {
    const { client, requests } = createBrowserClient({
      [`GET ${BROWSER}/config`]: { json: configuration },
      [`GET ${BROWSER}/auth/session`]: { json: unauthenticatedInitial },
      [`DELETE ${BROWSER}/auth/session`]: { json: unauthenticatedInitial },
      [`POST ${BROWSER}/auth/login`]: { json: authenticatedByPassword },
      [`POST ${BROWSER}/auth/signup`]: { json: authenticatedByPassword },
      [`POST ${BROWSER}/auth/reauthenticate`]: { json: authenticatedByPassword },
      [`POST ${BROWSER}/auth/code/request`]: { json: unauthenticatedPendingLoginByCode },
      [`POST ${BROWSER}/auth/code/confirm`]: { json: authenticatedByPassword },
      [`POST ${BROWSER}/auth/password/request`]: { json: statusOk },
      [`POST ${BROWSER}/auth/password/reset`]: { json: unauthenticatedInitial },
      [`POST ${BROWSER}/auth/email/verify`]: { json: authenticatedByPassword },
      [`POST ${BROWSER}/auth/email/verify/resend`]: { json: statusOk },
      [`POST ${BROWSER}/account/email`]: { json: emailAddresses },
      [`PUT ${BROWSER}/account/email`]: { json: statusOk },
      [`PATCH ${BROWSER}/account/email`]: { json: emailAddresses },
      [`DELETE ${BROWSER}/account/email`]: { json: emailAddresses },
      [`GET ${BROWSER}/account/email`]: { json: emailAddresses },
      [`POST ${BROWSER}/account/password/change`]: { json: authenticatedByPassword },
      [`GET ${BROWSER}/auth/sessions`]: { json: userSessions },
      [`DELETE ${BROWSER}/auth/sessions`]: { json: userSessions },
    });

    await client.getConfiguration();
    await client.getAuthenticationStatus();
    await client.logout();
    await client.login({ email: "ada@example.org", password: "pw" });
    await client.signup({ email: "ada@example.org", password: "pw" });
    await client.reauthenticate({ password: "pw" });
    await client.requestLoginCode({ email: "ada@example.org" });
    await client.confirmLoginCode({ code: "ABCD-EFGH" });
    await client.requestPasswordReset({ email: "ada@example.org" });
    await client.resetPassword({ key: "2f-c4nqd4", password: "new" });
    await client.verifyEmail({ key: "ABCDEFGH" });
    await client.resendEmailVerification();
    await client.addEmailAddress({ email: "b@example.org" });
    await client.requestEmailVerification({ email: "b@example.org" });
    await client.markEmailAddressAsPrimary({ email: "b@example.org" });
    await client.removeEmailAddress({ email: "b@example.org" });
    await client.listEmailAddresses();
    await client.changePassword({ currentPassword: "old", newPassword: "new" });
    await client.listSessions();
    await client.endSessions({ sessionIds: [124, 125] });

    expect(requests.map((request) => [request.method, request.url.replace(BASE, ""), request.body])).toEqual([
      ["GET", "/browser/v1/config", undefined],
      ["GET", "/browser/v1/auth/session", undefined],
      ["DELETE", "/browser/v1/auth/session", undefined],
      ["POST", "/browser/v1/auth/login", { email: "ada@example.org", password: "pw" }],
      ["POST", "/browser/v1/auth/signup", { email: "ada@example.org", password: "pw" }],
      ["POST", "/browser/v1/auth/reauthenticate", { password: "pw" }],
      ["POST", "/browser/v1/auth/code/request", { email: "ada@example.org" }],
      ["POST", "/browser/v1/auth/code/confirm", { code: "ABCD-EFGH" }],
      ["POST", "/browser/v1/auth/password/request", { email: "ada@example.org" }],
      ["POST", "/browser/v1/auth/password/reset", { key: "2f-c4nqd4", password: "new" }],
      ["POST", "/browser/v1/auth/email/verify", { key: "ABCDEFGH" }],
      ["POST", "/browser/v1/auth/email/verify/resend", undefined],
      ["POST", "/browser/v1/account/email", { email: "b@example.org" }],
      ["PUT", "/browser/v1/account/email", { email: "b@example.org" }],
      ["PATCH", "/browser/v1/account/email", { email: "b@example.org", primary: true }],
      ["DELETE", "/browser/v1/account/email", { email: "b@example.org" }],
      ["GET", "/browser/v1/account/email", undefined],
      ["POST", "/browser/v1/account/password/change", { current_password: "old", new_password: "new" }],
      ["GET", "/browser/v1/auth/sessions", undefined],
      ["DELETE", "/browser/v1/auth/sessions", { sessions: [124, 125] }],
    ]);
  });

  it("sends requests with credentials included", async () => {
    const { client, requests } = createBrowserClient({ [`GET ${BROWSER}/auth/session`]: { json: unauthenticatedInitial } });
    await client.getAuthenticationStatus();
    expect(requests[0]?.credentials).toBe("include");
  });

  it("sends only new_password when setting a first password", async () => {
    const { client, requests } = createBrowserClient({
      [`POST ${BROWSER}/account/password/change`]: { json: authenticatedByPassword },
    });
    await client.changePassword({ newPassword: "first" });
    expect(requests[0]?.body).toEqual({ new_password: "first" });
  });

  it("sends the password reset key in the X-Password-Reset-Key header", async () => {
    const { client, requests } = createBrowserClient({
      [`GET ${BROWSER}/auth/password/reset`]: { json: { status: 200, data: { user: authenticatedByPassword.data.user } } },
    });
    const result = await client.getPasswordResetKeyInfo("2f-c4nqd4-e07d");
    expect(requests[0]?.headers.get("X-Password-Reset-Key")).toBe("2f-c4nqd4-e07d");
    expect(result.status === 200 && result.data.user?.display).toBe("Magic Wizard");
  });

  it("sends the email verification key in the X-Email-Verification-Key header", async () => {
    const { client, requests } = createBrowserClient({
      [`GET ${BROWSER}/auth/email/verify`]: { json: emailVerificationInfo },
    });
    const result = await client.getEmailVerificationKeyInfo("KEY-1");
    expect(requests[0]?.headers.get("X-Email-Verification-Key")).toBe("KEY-1");
    expect(result).toEqual(emailVerificationInfo);
  });

  it("sends the CSRF token from the cookie reader on every call but GET /config", async () => {
    const { client, requests } = createBrowserClient({
      [`GET ${BROWSER}/config`]: { json: configuration },
      [`GET ${BROWSER}/auth/session`]: { json: unauthenticatedInitial },
      [`POST ${BROWSER}/auth/login`]: { json: authenticatedByPassword },
    });
    await client.getConfiguration();
    await client.getAuthenticationStatus();
    await client.login({ email: "ada@example.org", password: "pw" });
    expect(requests.map((request) => request.headers.get("X-CSRFToken"))).toEqual([null, "csrf-secret", "csrf-secret"]);
  });

  it("reads the CSRF token again for each call, since Django rotates it on login", async () => {
    let token = "before-login";
    const fake = createFakeFetch({ [`POST ${BROWSER}/auth/login`]: { json: authenticatedByPassword } });
    const client = createAllauthClient({ baseUrl: BASE, clientType: "browser", fetch: fake.fetch, readCsrfToken: () => token });
    await client.login({ email: "a@b.org", password: "pw" });
    token = "after-login";
    await client.login({ email: "a@b.org", password: "pw" });
    expect(fake.requests.map((request) => request.headers.get("X-CSRFToken"))).toEqual(["before-login", "after-login"]);
  });

  it("sends no CSRF header when there is no csrftoken cookie yet", async () => {
    const { client, requests } = createBrowserClient({ [`GET ${BROWSER}/auth/session`]: { json: unauthenticatedInitial } }, null);
    await client.getAuthenticationStatus();
    expect(requests[0]?.headers.has("X-CSRFToken")).toBe(false);
  });

  it("never sends a session token", async () => {
    const { client, requests } = createBrowserClient({ [`POST ${BROWSER}/auth/login`]: { json: authenticatedByPasswordAndTotp } });
    await client.login({ email: "a@b.org", password: "pw" });
    await client.login({ email: "a@b.org", password: "pw" });
    expect(requests[1]?.headers.has("X-Session-Token")).toBe(false);
  });

  it("returns a 400 with its errors instead of throwing", async () => {
    const { client } = createBrowserClient({ [`POST ${BROWSER}/auth/login`]: { json: passwordMismatch } });
    const result = await client.login({ email: "a@b.org", password: "wrong" });
    expect(result).toEqual(passwordMismatch);
  });

  it.each([
    ["403", forbidden],
    ["409", conflict],
    ["429", tooManyRequests],
  ])("returns a %s instead of throwing", async (_status, answer) => {
    const { client } = createBrowserClient({ [`POST ${BROWSER}/auth/code/confirm`]: { json: answer } });
    await expect(client.confirmLoginCode({ code: "X" })).resolves.toEqual(answer);
  });

  it("returns a 401 with a pending flow instead of throwing", async () => {
    const { client } = createBrowserClient({ [`POST ${BROWSER}/auth/code/request`]: { json: unauthenticatedPendingLoginByCode } });
    const result = await client.requestLoginCode({ email: "a@b.org" });
    expect(result.status).toBe(401);
  });

  it("returns a reauthentication 401 as signed in with flows", async () => {
    const { client } = createBrowserClient({ [`DELETE ${BROWSER}/account/email`]: { json: reauthenticationRequired } });
    const result = await client.removeEmailAddress({ email: "a@b.org" });
    expect(result.status === 401 && "user" in result.data && result.data.flows[0]?.id).toBe("reauthenticate");
  });

  it("parses the configuration", async () => {
    const { client } = createBrowserClient({ [`GET ${BROWSER}/config`]: { json: configuration } });
    const result = await client.getConfiguration();
    expect(result.status === 200 && result.data.account.login_by_code_enabled).toBe(true);
  });

  it("throws AllauthUnexpectedResponseError with the status when the body is not JSON", async () => {
    const { client } = createBrowserClient({
      [`POST ${BROWSER}/auth/login`]: { status: 403, text: "<h1>Forbidden (403)</h1><p>CSRF verification failed.</p>" },
    });
    const failure = client.login({ email: "a@b.org", password: "pw" });
    await expect(failure).rejects.toBeInstanceOf(AllauthUnexpectedResponseError);
    await expect(failure).rejects.toMatchObject({ status: 403, message: expect.stringContaining("CSRF") });
  });

  it("throws AllauthUnexpectedResponseError when the body does not match the schema", async () => {
    const { client } = createBrowserClient({
      [`GET ${BROWSER}/auth/session`]: { json: { status: 200, data: { user: { id: 1 } }, meta: { is_authenticated: true } } },
    });
    const failure = client.getAuthenticationStatus();
    await expect(failure).rejects.toBeInstanceOf(AllauthUnexpectedResponseError);
    await expect(failure).rejects.toMatchObject({ status: 200, issues: expect.arrayContaining([expect.stringContaining("data.user.display")]) });
  });

  it("throws AllauthUnexpectedResponseError for a status allauth never sends", async () => {
    const { client } = createBrowserClient({ [`GET ${BROWSER}/auth/session`]: { json: { status: 500 } } });
    await expect(client.getAuthenticationStatus()).rejects.toMatchObject({ name: "AllauthUnexpectedResponseError", status: 500 });
  });

  it("throws AllauthNetworkError when fetch fails", async () => {
    const client = createAllauthClient({
      baseUrl: BASE,
      clientType: "browser",
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    const failure = client.getAuthenticationStatus();
    await expect(failure).rejects.toBeInstanceOf(AllauthNetworkError);
    await expect(failure).rejects.toMatchObject({ method: "GET", url: `${BASE}/browser/v1/auth/session` });
  });

  it("notifies subscribers of every authentication answer, and stops after unsubscribing", async () => {
    const { client } = createBrowserClient({
      [`GET ${BROWSER}/config`]: { json: configuration },
      [`GET ${BROWSER}/auth/session`]: { json: unauthenticatedInitial },
      [`POST ${BROWSER}/auth/login`]: { json: authenticatedByPassword },
      [`POST ${BROWSER}/auth/signup`]: { json: passwordMismatch },
      [`GET ${BROWSER}/auth/email/verify`]: { json: emailVerificationInfo },
    });
    const received: AuthenticationResponse[] = [];
    const unsubscribe = client.subscribeToAuthChanges((response) => received.push(response));
    await client.getConfiguration();
    await client.getAuthenticationStatus();
    await client.login({ email: "a@b.org", password: "pw" });
    await client.signup({ email: "a@b.org", password: "pw" });
    await client.getEmailVerificationKeyInfo("KEY");
    unsubscribe();
    await client.getAuthenticationStatus();
    expect(received.map((response) => response.status)).toEqual([401, 200]);
  });

  it("keeps answering when a subscriber throws, and rethrows its error apart from the call", async () => {
    const rethrown: unknown[] = [];
    const { client } = createBrowserClient({ [`GET ${BROWSER}/auth/session`]: { json: unauthenticatedInitial } });
    client.subscribeToAuthChanges(() => {
      throw new Error("faulty listener");
    });
    const originalQueueMicrotask = globalThis.queueMicrotask;
    globalThis.queueMicrotask = (callback) => {
      try {
        callback();
      } catch (error) {
        rethrown.push(error);
      }
    };
    try {
      await expect(client.getAuthenticationStatus()).resolves.toMatchObject({ status: 401 });
    } finally {
      globalThis.queueMicrotask = originalQueueMicrotask;
    }
    expect(rethrown).toEqual([new Error("faulty listener")]);
  });

  it("builds the provider redirect form with the CSRF token as a field", () => {
    const { client } = createBrowserClient({});
    expect(
      client.providerRedirectFormFields({ provider: "google", process: "login", callbackUrl: "https://site.example/account/provider/callback" }),
    ).toEqual({
      action: `${BASE}/browser/v1/auth/provider/redirect`,
      method: "POST",
      fields: {
        provider: "google",
        process: "login",
        callback_url: "https://site.example/account/provider/callback",
        csrfmiddlewaretoken: "csrf-secret",
      },
    });
  });

  it("accepts a base URL with a trailing slash", async () => {
    const fake = createFakeFetch({ [`GET ${BROWSER}/config`]: { json: configuration } });
    const client = createAllauthClient({ baseUrl: `${BASE}/`, clientType: "browser", fetch: fake.fetch });
    await client.getConfiguration();
    expect(fake.requests[0]?.url).toBe(`${BASE}/browser/v1/config`);
  });
});

describe("given an app-mode client", () => {
  const APP = "/_allauth/app/v1";

  function createAppClient(answers: Parameters<typeof createFakeFetch>[0], storedToken?: string) {
    const fake = createFakeFetch(answers);
    const storage = createMemorySessionTokenStorage(storedToken === undefined ? {} : { sessionToken: storedToken });
    const client = createAllauthClient({
      baseUrl: BASE,
      clientType: "app",
      fetch: fake.fetch,
      sessionTokenStorage: storage,
      readCsrfToken: () => "csrf-secret",
    });
    return { client, storage, requests: fake.requests };
  }

  it("stores the session token of meta.session_token and sends it as X-Session-Token", async () => {
    const { client, storage, requests } = createAppClient({
      [`POST ${APP}/auth/login`]: { json: authenticatedByPasswordAndTotp },
      [`GET ${APP}/auth/session`]: { json: authenticatedByPassword },
    });
    await client.login({ email: "a@b.org", password: "pw" });
    await client.getAuthenticationStatus();
    expect(storage.getItem("sessionToken")).toBe("ufwcig0zen9skyd545jc0fkq813ghar2");
    expect(client.getSessionToken()).toBe("ufwcig0zen9skyd545jc0fkq813ghar2");
    expect(requests[0]?.headers.has("X-Session-Token")).toBe(false);
    expect(requests[1]?.headers.get("X-Session-Token")).toBe("ufwcig0zen9skyd545jc0fkq813ghar2");
  });

  it("sends no CSRF header", async () => {
    const { client, requests } = createAppClient({ [`GET ${APP}/auth/session`]: { json: unauthenticatedInitial } });
    await client.getAuthenticationStatus();
    expect(requests[0]?.headers.has("X-CSRFToken")).toBe(false);
  });

  it("sends no session token to GET /config", async () => {
    const { client, requests } = createAppClient({ [`GET ${APP}/config`]: { json: configuration } }, "stored-token");
    await client.getConfiguration();
    expect(requests[0]?.headers.has("X-Session-Token")).toBe(false);
  });

  it("drops the session token on a 410 and reports the 410 to subscribers", async () => {
    const { client, storage } = createAppClient({ [`GET ${APP}/auth/session`]: { json: sessionGone } }, "stale-token");
    const listener = vi.fn();
    client.subscribeToAuthChanges(listener);
    const result = await client.getAuthenticationStatus();
    expect(result.status).toBe(410);
    expect(storage.getItem("sessionToken")).toBeNull();
    expect(listener).toHaveBeenCalledWith(expect.objectContaining({ status: 410 }));
  });

  it("drops the session token after logging out", async () => {
    const { client, storage } = createAppClient({ [`DELETE ${APP}/auth/session`]: { json: unauthenticatedInitial } }, "token");
    await client.logout();
    expect(storage.getItem("sessionToken")).toBeNull();
  });
});
