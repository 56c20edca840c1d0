// @vitest-environment node
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { createAllauthClient } from "./client.ts";
import { providerAccountsResponseSchema, providerSignupResponseSchema } from "./schemas.ts";
import { authenticatedByPassword, conflict, reauthenticationRequired, unauthenticatedPendingEmailVerification } from "./test-support/allauth-answers.ts";
import { createFakeFetch } from "./test-support/fake-fetch.ts";

const BASE = "https://api.example.com/_allauth";
const API = "/_allauth/browser/v1";

const localProvider = { id: "local", name: "Test ID (local)", flows: ["provider_redirect"] };
const google = { id: "google", name: "Google", client_id: "123.apps.googleusercontent.com", flows: ["provider_redirect", "provider_token"] };
const localAccount = { uid: "ada-42", display: "Ada (local)", provider: localProvider };
const googleAccount = { uid: "goo12345", display: "Wizzkid", provider: google };
// allauth drops null values, so the not-yet-saved user has no id (API notes §2).
const pendingSignup = {
  status: 200,
  data: {
    email: [{ email: "ada@example.org", verified: true, primary: true }],
    account: localAccount,
    user: { display: "Ada", has_usable_password: false },
  },
};

function createClient(answers: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(answers);
  const client = createAllauthClient({ baseUrl: BASE, clientType: "browser", fetch: fake.fetch, readCsrfToken: () => "csrf" });
  return { client, requests: fake.requests };
}

describe("given the third-party account calls", () => {
  it("sends each call to its path with its method and body", async () => {
    const { client, requests } = createClient({
      [`GET ${API}/auth/provider/signup`]: { json: pendingSignup },
      [`POST ${API}/auth/provider/signup`]: { json: authenticatedByPassword },
      [`GET ${API}/account/providers`]: { json: { status: 200, data: [localAccount, googleAccount] } },
      [`DELETE ${API}/account/providers`]: { json: { status: 200, data: [googleAccount] } },
    });

    const results = [
      await client.getProviderSignup(),
      await client.providerSignup({ email: "ada@example.org" }),
      await client.listProviderAccounts(),
      await client.disconnectProviderAccount({ provider: "local", account: "ada-42" }),
    ];

    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200]);
    expect(requests.map((request) => [request.method, request.url.replace(`${BASE}/browser/v1`, ""), request.body])).toEqual([
      ["GET", "/auth/provider/signup", undefined],
      ["POST", "/auth/provider/signup", { email: "ada@example.org" }],
      ["GET", "/account/providers", undefined],
      ["DELETE", "/account/providers", { provider: "local", account: "ada-42" }],
    ]);
    expect(requests.every((request) => request.headers.get("X-CSRFToken") === "csrf")).toBe(true);
  });

  it("parses the pending provider sign-up, whose user has no id yet", async () => {
    const { client } = createClient({ [`GET ${API}/auth/provider/signup`]: { json: pendingSignup } });
    expect(await client.getProviderSignup()).toEqual(pendingSignup);
  });

  it("returns the 409 of a provider sign-up that is not pending", async () => {
    const { client } = createClient({
      [`GET ${API}/auth/provider/signup`]: { json: conflict },
      [`POST ${API}/auth/provider/signup`]: { json: conflict },
    });
    expect((await client.getProviderSignup()).status).toBe(409);
    expect((await client.providerSignup({ email: "ada@example.org" })).status).toBe(409);
  });

  it("returns a sign-up's 401 with the next pending flow and tells the subscribers", async () => {
    const { client } = createClient({ [`POST ${API}/auth/provider/signup`]: { json: unauthenticatedPendingEmailVerification } });
    const seen: number[] = [];
    client.subscribeToAuthChanges((response) => seen.push(response.status));
    const result = await client.providerSignup({ email: "ada@example.org" });
    expect(result).toEqual(unauthenticatedPendingEmailVerification);
    expect(seen).toEqual([401]);
  });

  it("returns a sign-up's 400 with the errors under email", async () => {
    const errors = [{ message: "A user is already registered with this email address.", code: "email_taken", param: "email" }];
    const { client } = createClient({ [`POST ${API}/auth/provider/signup`]: { json: { status: 400, errors } } });
    expect(await client.providerSignup({ email: "taken@example.org" })).toEqual({ status: 400, errors });
  });

  it("returns a disconnect's 400 without param, as allauth sends it", async () => {
    const errors = [{ message: "Your account has no password set up.", code: "no_password" }];
    const { client } = createClient({ [`DELETE ${API}/account/providers`]: { json: { status: 400, errors } } });
    expect(await client.disconnectProviderAccount({ provider: "local", account: "ada-42" })).toEqual({ status: 400, errors });
  });

  it("returns a disconnect's reauthentication 401 and tells the subscribers", async () => {
    const { client } = createClient({ [`DELETE ${API}/account/providers`]: { json: reauthenticationRequired } });
    const seen: number[] = [];
    client.subscribeToAuthChanges((response) => seen.push(response.status));
    const result = await client.disconnectProviderAccount({ provider: "local", account: "ada-42" });
    expect(result.status).toBe(401);
    expect(seen).toEqual([401]);
  });
});

describe("the third-party account schemas", () => {
  it("accept an account list with providers of any flows", () => {
    expect(v.is(providerAccountsResponseSchema, { status: 200, data: [localAccount, googleAccount] })).toBe(true);
    expect(v.is(providerAccountsResponseSchema, { status: 200, data: [] })).toBe(true);
  });

  it("reject an account without its provider", () => {
    expect(v.is(providerAccountsResponseSchema, { status: 200, data: [{ uid: "1", display: "Ada" }] })).toBe(false);
  });

  it("accept a provider sign-up where the provider gave no address", () => {
    expect(v.is(providerSignupResponseSchema, { ...pendingSignup, data: { ...pendingSignup.data, email: [] } })).toBe(true);
  });
});
