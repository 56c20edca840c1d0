// @vitest-environment node
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  authenticatedResponseSchema,
  authenticationResponseSchema,
  badRequestResponseSchema,
  configurationResponseSchema,
  emailAddressesResponseSchema,
  notAuthenticatedResponseSchema,
  reauthenticationRequiredResponseSchema,
  sessionGoneResponseSchema,
  userSessionsResponseSchema,
} from "./schemas.ts";
import {
  authenticatedByPasswordAndTotp,
  configuration,
  emailAddresses,
  passwordMismatch,
  reauthenticationRequired,
  sessionGone,
  tooManyLoginAttempts,
  unauthenticatedPendingProviderSignup,
  unauthenticatedPendingTotp,
  userSessions,
} from "./test-support/allauth-answers.ts";

describe("the valibot schemas, given openapi.yaml's examples", () => {
  it("accept AuthenticatedByPasswordAnd2FA as an authenticated answer", () => {
    expect(v.parse(authenticatedResponseSchema, authenticatedByPasswordAndTotp)).toEqual(authenticatedByPasswordAndTotp);
  });

  it("accept UnauthenticatedPendingProviderSignup as a signed-out answer", () => {
    expect(v.is(notAuthenticatedResponseSchema, unauthenticatedPendingProviderSignup)).toBe(true);
  });

  it("accept ReauthenticationRequired as a reauthentication answer and not as a signed-out one", () => {
    expect(v.is(reauthenticationRequiredResponseSchema, reauthenticationRequired)).toBe(true);
    expect(v.is(notAuthenticatedResponseSchema, reauthenticationRequired)).toBe(false);
  });

  it("accept the flows of allauth's own test, including ids missing from the OpenAPI enum", () => {
    expect(v.is(authenticationResponseSchema, unauthenticatedPendingTotp)).toBe(true);
  });

  it("accept a password_reset_by_code flow with is_pending false, as allauth sends it", () => {
    const answer = { status: 401, data: { flows: [{ id: "login" }, { id: "password_reset_by_code", is_pending: false }] }, meta: { is_authenticated: false } };
    expect(v.is(notAuthenticatedResponseSchema, answer)).toBe(true);
  });

  it("accept a 410 and a 410 without data", () => {
    expect(v.is(sessionGoneResponseSchema, sessionGone)).toBe(true);
    expect(v.parse(sessionGoneResponseSchema, { status: 410 })).toEqual({
      status: 410,
      data: { flows: [] },
      meta: { is_authenticated: null },
    });
  });

  it("accept the configuration, and one with only the account section", () => {
    expect(v.is(configurationResponseSchema, configuration)).toBe(true);
    const accountOnly = {
      status: 200,
      data: { account: { is_open_for_signup: false, email_verification_by_code_enabled: false, login_by_code_enabled: false } },
    };
    expect(v.is(configurationResponseSchema, accountOnly)).toBe(true);
  });

  it("accept errors with and without a param", () => {
    expect(v.is(badRequestResponseSchema, passwordMismatch)).toBe(true);
    expect(v.is(badRequestResponseSchema, tooManyLoginAttempts)).toBe(true);
  });

  it("accept email addresses and sessions with and without last_seen_at", () => {
    expect(v.is(emailAddressesResponseSchema, emailAddresses)).toBe(true);
    expect(v.is(userSessionsResponseSchema, userSessions)).toBe(true);
  });

  it("keep the extra user fields a project's adapter adds", () => {
    const withExtraField = structuredClone(authenticatedByPasswordAndTotp);
    Object.assign(withExtraField.data.user, { token: "abc" });
    expect(v.parse(authenticatedResponseSchema, withExtraField).data.user.token).toBe("abc");
  });

  it("reject a user without display", () => {
    const broken = structuredClone(authenticatedByPasswordAndTotp) as { data: { user: Partial<typeof authenticatedByPasswordAndTotp.data.user> } };
    delete broken.data.user.display;
    expect(v.is(authenticatedResponseSchema, broken)).toBe(false);
  });
});
