// @vitest-environment node
import { describe, expect, it } from "vitest";
import { createAllauthClient } from "./client.ts";
import { totpSetupFromResult } from "./mfa.ts";
import { authenticatedByPassword, reauthenticationRequired, unauthenticatedInitial } from "./test-support/allauth-answers.ts";
import { createFakeFetch } from "./test-support/fake-fetch.ts";

const BASE = "https://api.example.com/_allauth";
const API = "/_allauth/browser/v1";

const totp = { type: "totp", created_at: 1_700_000_000.5, last_used_at: null };
const recoveryCodes = {
  type: "recovery_codes",
  created_at: 1_700_000_000,
  last_used_at: null,
  total_code_count: 10,
  unused_code_count: 9,
};
const securityKey = { type: "webauthn", id: 7, name: "YubiKey", is_passwordless: false, created_at: 1_700_000_100, last_used_at: 1_700_000_200 };
const creationOptions = { creation_options: { publicKey: { challenge: "Y2hhbGxlbmdl", rp: { id: "localhost", name: "Atelier" } } } };
const requestOptions = { request_options: { publicKey: { challenge: "Y2hhbGxlbmdl", rpId: "localhost" } } };
const credential = { id: "cred", rawId: "cred", type: "public-key", response: { clientDataJSON: "e30" } };

function createClient(answers: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(answers);
  const client = createAllauthClient({ baseUrl: BASE, clientType: "browser", fetch: fake.fetch, readCsrfToken: () => "csrf" });
  return { client, requests: fake.requests };
}

describe("given the MFA and WebAuthn calls", () => {
  it("sends each call to its path with its method and body", async () => {
    const { client, requests } = createClient({
      [`GET ${API}/account/authenticators`]: { json: { status: 200, data: [totp, recoveryCodes, securityKey] } },
      [`GET ${API}/account/authenticators/totp`]: { json: { status: 200, data: totp } },
      [`POST ${API}/account/authenticators/totp`]: { json: { status: 200, data: totp } },
      [`DELETE ${API}/account/authenticators/totp`]: { json: { status: 200 } },
      [`GET ${API}/account/authenticators/recovery-codes`]: { json: { status: 200, data: { ...recoveryCodes, unused_codes: ["12345678"] } } },
      [`POST ${API}/account/authenticators/recovery-codes`]: { json: { status: 200, data: { ...recoveryCodes, unused_codes: ["87654321"] } } },
      [`GET ${API}/account/authenticators/webauthn`]: { json: { status: 200, data: creationOptions } },
      [`POST ${API}/account/authenticators/webauthn`]: { json: { status: 200, data: securityKey, meta: { recovery_codes_generated: true } } },
      [`PUT ${API}/account/authenticators/webauthn`]: { json: { status: 200, data: { ...securityKey, name: "Blue key" } } },
      [`DELETE ${API}/account/authenticators/webauthn`]: { json: { status: 200 } },
      [`POST ${API}/auth/2fa/authenticate`]: { json: authenticatedByPassword },
      [`POST ${API}/auth/2fa/reauthenticate`]: { json: authenticatedByPassword },
      [`GET ${API}/auth/webauthn/authenticate`]: { json: { status: 200, data: requestOptions } },
      [`POST ${API}/auth/webauthn/authenticate`]: { json: authenticatedByPassword },
      [`GET ${API}/auth/webauthn/login`]: { json: { status: 200, data: requestOptions } },
      [`POST ${API}/auth/webauthn/login`]: { json: authenticatedByPassword },
      [`GET ${API}/auth/webauthn/reauthenticate`]: { json: { status: 200, data: requestOptions } },
      [`POST ${API}/auth/webauthn/reauthenticate`]: { json: authenticatedByPassword },
      [`POST ${API}/auth/webauthn/signup`]: { json: unauthenticatedInitial },
      [`GET ${API}/auth/webauthn/signup`]: { json: { status: 200, data: creationOptions } },
      [`PUT ${API}/auth/webauthn/signup`]: { json: authenticatedByPassword },
    });

    const results = [
      await client.listAuthenticators(),
      await client.getTotpAuthenticator(),
      await client.activateTotp({ code: "123456" }),
      await client.deactivateTotp(),
      await client.getRecoveryCodes(),
      await client.regenerateRecoveryCodes(),
      await client.getWebAuthnCreationOptions(),
      await client.getWebAuthnCreationOptions({ passwordless: true }),
      await client.addWebAuthnAuthenticator({ name: "YubiKey", credential }),
      await client.renameWebAuthnAuthenticator({ id: 7, name: "Blue key" }),
      await client.deleteWebAuthnAuthenticators({ ids: [7, 8] }),
      await client.authenticateWithCode({ code: "123456" }),
      await client.reauthenticateWithCode({ code: "12345678" }),
      await client.getWebAuthnAuthenticateOptions(),
      await client.authenticateWithWebAuthn({ credential }),
      await client.getWebAuthnLoginOptions(),
      await client.loginWithWebAuthn({ credential }),
      await client.getWebAuthnReauthenticateOptions(),
      await client.reauthenticateWithWebAuthn({ credential }),
      await client.signupWithPasskey({ email: "ada@example.org" }),
      await client.getWebAuthnSignupOptions(),
      await client.completePasskeySignup({ name: "Laptop", credential }),
    ];

    expect(results.map((result) => result.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 401, 200, 200,
    ]);
    expect(requests.map((request) => [request.method, request.url.replace(`${BASE}/browser/v1`, ""), request.body])).toEqual([
      ["GET", "/account/authenticators", undefined],
      ["GET", "/account/authenticators/totp", undefined],
      ["POST", "/account/authenticators/totp", { code: "123456" }],
      ["DELETE", "/account/authenticators/totp", undefined],
      ["GET", "/account/authenticators/recovery-codes", undefined],
      ["POST", "/account/authenticators/recovery-codes", undefined],
      ["GET", "/account/authenticators/webauthn", undefined],
      ["GET", "/account/authenticators/webauthn?passwordless", undefined],
      ["POST", "/account/authenticators/webauthn", { name: "YubiKey", credential }],
      ["PUT", "/account/authenticators/webauthn", { id: 7, name: "Blue key" }],
      ["DELETE", "/account/authenticators/webauthn", { authenticators: [7, 8] }],
      ["POST", "/auth/2fa/authenticate", { code: "123456" }],
      ["POST", "/auth/2fa/reauthenticate", { code: "12345678" }],
      ["GET", "/auth/webauthn/authenticate", undefined],
      ["POST", "/auth/webauthn/authenticate", { credential }],
      ["GET", "/auth/webauthn/login", undefined],
      ["POST", "/auth/webauthn/login", { credential }],
      ["GET", "/auth/webauthn/reauthenticate", undefined],
      ["POST", "/auth/webauthn/reauthenticate", { credential }],
      ["POST", "/auth/webauthn/signup", { email: "ada@example.org" }],
      ["GET", "/auth/webauthn/signup", undefined],
      ["PUT", "/auth/webauthn/signup", { name: "Laptop", credential }],
    ]);
    expect(requests.every((request) => request.headers.get("X-CSRFToken") === "csrf")).toBe(true);
  });

  it("parses the authenticators, and leaves out types it does not know", async () => {
    const { client } = createClient({
      [`GET ${API}/account/authenticators`]: { json: { status: 200, data: [totp, { type: "sms", created_at: 1 }, securityKey] } },
    });
    const result = await client.listAuthenticators();
    expect(result).toEqual({ status: 200, data: [totp, securityKey] });
  });

  it("returns the 404 of an inactive TOTP with its secret and URL as a result", async () => {
    const meta = { secret: "J6XBQ5BAGCQ7ETQNEWJPKR4WYCG3ZQXS", totp_url: "otpauth://totp/Atelier:ada?secret=J6XBQ5BAGCQ7ETQNEWJPKR4WYCG3ZQXS&issuer=Atelier" };
    const { client } = createClient({ [`GET ${API}/account/authenticators/totp`]: { json: { status: 404, meta } } });
    const result = await client.getTotpAuthenticator();
    expect(result).toEqual({ status: 404, meta });
    expect(totpSetupFromResult(result)).toEqual({ secret: meta.secret, totpUrl: meta.totp_url });
  });

  it("has no TOTP setup for answers other than a 404 with a secret", async () => {
    expect(totpSetupFromResult({ status: 200, data: { type: "totp", created_at: 1, last_used_at: null }, meta: undefined })).toBeUndefined();
    expect(totpSetupFromResult({ status: 404 })).toBeUndefined();
    expect(totpSetupFromResult({ status: 409, errors: [{ message: "Verify first", code: "unverified_email" }] })).toBeUndefined();
  });

  it("returns a reauthentication 401 and tells the subscribers", async () => {
    const { client } = createClient({ [`DELETE ${API}/account/authenticators/totp`]: { json: reauthenticationRequired } });
    const seen: number[] = [];
    client.subscribeToAuthChanges((response) => seen.push(response.status));
    const result = await client.deactivateTotp();
    expect(result.status).toBe(401);
    expect(seen).toEqual([401]);
  });

  it("returns a 400 of a wrong code with its errors", async () => {
    const errors = [{ message: "Incorrect code.", code: "incorrect_code", param: "code" }];
    const { client } = createClient({ [`POST ${API}/auth/2fa/authenticate`]: { json: { status: 400, errors } } });
    expect(await client.authenticateWithCode({ code: "000000" })).toEqual({ status: 400, errors });
  });

  it("sends a key without a name when none is given", async () => {
    const { client, requests } = createClient({
      [`POST ${API}/account/authenticators/webauthn`]: { json: { status: 200, data: securityKey } },
    });
    await client.addWebAuthnAuthenticator({ credential });
    expect(requests[0]?.body).toEqual({ credential });
  });
});
