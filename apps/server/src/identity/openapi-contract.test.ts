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
});
