import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { loadContractValidator, openApiPath } from "./testing/openapi-contract.ts";

// Every answer of the scenario and security tests is validated against openapi.yaml inside the test client
// (testing/identity-test-client.ts). This file checks the validator itself.
const hasOpenApi = fs.existsSync(openApiPath);
if (!hasOpenApi) {
  console.warn(`The OpenAPI contract checks are skipped: ${openApiPath} does not exist.`);
}

describe.skipIf(!hasOpenApi)("given allauth's openapi.yaml", () => {
  const validator = loadContractValidator();

  it("should accept allauth's exact not-authenticated answer", () => {
    expect(validator?.validate({ method: "GET", path: "/_allauth/browser/v1/auth/session", status: 401, body: { status: 401, data: { flows: [{ id: "login" }, { id: "signup" }] }, meta: { is_authenticated: false } } })).toEqual([]);
  });

  it("should refuse an answer that breaks the contract", () => {
    expect(validator?.validate({ method: "GET", path: "/_allauth/browser/v1/auth/session", status: 200, body: { status: 200, data: { user: { id: 1 } } } })).not.toEqual([]);
    expect(validator?.validate({ method: "GET", path: "/_allauth/browser/v1/auth/sessions", status: 200, body: { status: 200, data: [{ id: "not-an-integer", ip: "", user_agent: "", created_at: 1, is_current: true }] } })).not.toEqual([]);
  });

  it("should accept only the deviations API.md documents", () => {
    expect(validator?.validate({ method: "GET", path: "/_allauth/app/v1/auth/session", status: 410, body: { status: 410, data: { flows: [] }, meta: { is_authenticated: null } } })).toEqual([]);
    expect(validator?.validate({ method: "GET", path: "/_allauth/browser/v1/auth/session", status: 401, body: { status: 401, data: { flows: [{ id: "password_reset_by_code", is_pending: false }] }, meta: { is_authenticated: false } } })).toEqual([]);
    expect(validator?.validate({ method: "GET", path: "/_allauth/browser/v1/auth/session", status: 401, body: { status: 401, data: { flows: [{ id: "no_such_flow" }] }, meta: { is_authenticated: false } } })).not.toEqual([]);
  });

  it("should hold the MFA answers to the spec: authenticator lists, TOTP setup, recovery codes, WebAuthn options", () => {
    const base = "/_allauth/browser/v1";
    expect(validator?.validate({ method: "GET", path: `${base}/account/authenticators`, status: 200, body: { status: 200, data: [{ type: "totp", created_at: 1, last_used_at: null }, { type: "recovery_codes", created_at: 1, last_used_at: 2, total_code_count: 10, unused_code_count: 9 }, { type: "webauthn", created_at: 1, last_used_at: null, id: 7, name: "Key", is_passwordless: true }] } })).toEqual([]);
    expect(validator?.validate({ method: "GET", path: `${base}/account/authenticators`, status: 200, body: { status: 200, data: [{ type: "webauthn", created_at: 1, last_used_at: null, id: "7", name: "Key" }] } })).not.toEqual([]);
    expect(validator?.validate({ method: "GET", path: `${base}/account/authenticators/totp`, status: 404, body: { status: 404, meta: { secret: "J4ZKKXTK7NOVU7EPUVY23LCDV4T2QZYM", totp_url: "otpauth://totp/Atelier:a%40b.ch?secret=J4ZKKXTK7NOVU7EPUVY23LCDV4T2QZYM&issuer=Atelier" } } })).toEqual([]);
    expect(validator?.validate({ method: "GET", path: `${base}/account/authenticators/totp`, status: 404, body: { status: 404 } })).not.toEqual([]);
    expect(validator?.validate({ method: "GET", path: `${base}/account/authenticators/recovery-codes`, status: 200, body: { status: 200, data: { type: "recovery_codes", created_at: 1, last_used_at: null, total_code_count: 10, unused_code_count: 10, unused_codes: ["12345678"] } } })).toEqual([]);
    expect(validator?.validate({ method: "GET", path: `${base}/auth/webauthn/login`, status: 200, body: { status: 200, data: { request_options: { publicKey: { challenge: "abc" } } } } })).toEqual([]);
    expect(validator?.validate({ method: "GET", path: `${base}/auth/webauthn/login`, status: 200, body: { status: 200, data: { creation_options: { publicKey: {} } } } })).not.toEqual([]);
    expect(validator?.validate({ method: "POST", path: `${base}/account/authenticators/webauthn`, status: 200, body: { status: 200, data: { type: "webauthn", created_at: 1, last_used_at: null, id: 7, name: "Key" } } })).not.toEqual([]);
    expect(validator?.validate({ method: "POST", path: `${base}/auth/2fa/authenticate`, status: 200, body: { status: 200, data: { user: { id: "u", display: "a@b.ch", has_usable_password: true }, methods: [{ method: "password", at: 1, email: "a@b.ch" }, { method: "mfa", at: 2, id: 7, type: "totp" }] }, meta: { is_authenticated: true } } })).toEqual([]);
  });
});
