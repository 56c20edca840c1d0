// @vitest-environment node
import { describe, expect, expectTypeOf, it } from "vitest";
import { errorsByParam, isAuthenticationResponse, isSuccess, type AllauthResult } from "./result.ts";
import type {
  AllauthErrorItem,
  AuthenticatedResponse,
  EmailAddress,
  EmailAddressesResponse,
  ReauthenticationRequiredResponse,
  NotAuthenticatedResponse,
} from "./schemas.ts";
import { authenticatedByPassword, emailVerificationInfo, passwordMismatch, sessionGone } from "./test-support/allauth-answers.ts";

describe("errorsByParam", () => {
  it("puts errors with a param under that param and the others in general", () => {
    expect(
      errorsByParam([
        ...passwordMismatch.errors,
        { message: "This field is required.", code: "required", param: "email" },
        { message: "Too many failed login attempts. Try again later.", code: "too_many_login_attempts" },
        { message: "This password is too short.", code: "password_too_short", param: "password" },
      ]),
    ).toEqual({
      byParam: {
        password: ["The email address and/or password you specified are not correct.", "This password is too short."],
        email: ["This field is required."],
      },
      general: ["Too many failed login attempts. Try again later."],
    });
  });

  it("gives empty groups for no errors", () => {
    expect(errorsByParam(undefined)).toEqual({ byParam: {}, general: [] });
  });
});

describe("isAuthenticationResponse", () => {
  it("recognises a signed-in answer and a 410, but not email verification info", () => {
    expect(isAuthenticationResponse(authenticatedByPassword)).toBe(true);
    expect(isAuthenticationResponse(sessionGone)).toBe(true);
    expect(isAuthenticationResponse(emailVerificationInfo)).toBe(false);
  });
});

describe("AllauthResult", () => {
  it("narrows to the success type on status 200", () => {
    const result = {} as AllauthResult<EmailAddressesResponse>;
    if (result.status === 200) expectTypeOf(result.data).toEqualTypeOf<EmailAddress[]>();
    if (isSuccess(result)) expectTypeOf(result).toEqualTypeOf<EmailAddressesResponse>();
  });

  it("narrows to the errors on status 400", () => {
    const result = {} as AllauthResult<AuthenticatedResponse>;
    if (result.status === 400) expectTypeOf(result.errors).toEqualTypeOf<AllauthErrorItem[]>();
  });

  it("narrows a 401 to a signed-out or a reauthentication answer", () => {
    const result = {} as AllauthResult<AuthenticatedResponse>;
    if (result.status === 401) {
      expectTypeOf(result).toEqualTypeOf<NotAuthenticatedResponse | ReauthenticationRequiredResponse>();
    }
  });

  it("has no data to read before the status is checked", () => {
    const result = {} as AllauthResult<AuthenticatedResponse>;
    const readUserBeforeNarrowing = () =>
      // @ts-expect-error data may be absent (400, 403, 409…) until status is narrowed
      result.data.user;
    expectTypeOf(readUserBeforeNarrowing).toBeFunction();
  });
});
