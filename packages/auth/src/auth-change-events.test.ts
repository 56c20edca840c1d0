// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  AUTH_CHANGE_EVENT,
  describeAuthChange,
  determineAuthChangeEvent,
  getAuthenticationInfo,
} from "./auth-change-events.ts";
import {
  authenticatedAfterReauthentication,
  authenticatedAsAnotherUser,
  authenticatedByPassword,
  authenticatedByPasswordAndTotp,
  reauthenticationRequired,
  sessionGone,
  unauthenticatedInitial,
  unauthenticatedPendingEmailVerification,
  unauthenticatedPendingLoginByCode,
  unauthenticatedPendingTotp,
} from "./test-support/allauth-answers.ts";
import { asAuthenticationResponse } from "./test-support/parse-answer.ts";

const signedIn = asAuthenticationResponse(authenticatedByPassword);
const signedInWithTwoMethods = asAuthenticationResponse(authenticatedByPasswordAndTotp);
const signedInAfterReauthentication = asAuthenticationResponse(authenticatedAfterReauthentication);
const signedInAsAnotherUser = asAuthenticationResponse(authenticatedAsAnotherUser);
const signedOut = asAuthenticationResponse(unauthenticatedInitial);
const pendingEmailVerification = asAuthenticationResponse(unauthenticatedPendingEmailVerification);
const pendingLoginByCode = asAuthenticationResponse(unauthenticatedPendingLoginByCode);
const pendingTotp = asAuthenticationResponse(unauthenticatedPendingTotp);
const needsReauthentication = asAuthenticationResponse(reauthenticationRequired);
const gone = asAuthenticationResponse(sessionGone);

describe("getAuthenticationInfo", () => {
  it("reads a 200 answer as signed in, with its user and methods", () => {
    expect(getAuthenticationInfo(signedIn)).toEqual({
      isAuthenticated: true,
      requiresReauthentication: false,
      user: authenticatedByPassword.data.user,
      pendingFlow: undefined,
      methods: authenticatedByPassword.data.methods,
    });
  });

  it("reads a 401 answer with is_authenticated true as signed in and needing reauthentication", () => {
    const info = getAuthenticationInfo(needsReauthentication);
    expect(info.isAuthenticated).toBe(true);
    expect(info.requiresReauthentication).toBe(true);
    expect(info.user?.id).toBe(123);
  });

  it("reads a plain 401 answer as signed out with no user", () => {
    const info = getAuthenticationInfo(signedOut);
    expect(info).toEqual({
      isAuthenticated: false,
      requiresReauthentication: false,
      user: null,
      pendingFlow: undefined,
      methods: [],
    });
  });

  it("finds the pending flow of a 401 answer", () => {
    expect(getAuthenticationInfo(pendingTotp).pendingFlow).toEqual({
      id: "mfa_authenticate",
      is_pending: true,
      types: ["totp"],
    });
  });

  it("reads a 410 answer as signed out", () => {
    expect(getAuthenticationInfo(gone).isAuthenticated).toBe(false);
  });

  it("reads a missing answer as signed out", () => {
    expect(getAuthenticationInfo(undefined).isAuthenticated).toBe(false);
  });

  it("treats a null is_authenticated (allauth's UnauthorizedResponse quirk) as signed out", () => {
    const quirky = asAuthenticationResponse({ ...unauthenticatedInitial, meta: { is_authenticated: null } });
    expect(getAuthenticationInfo(quirky).isAuthenticated).toBe(false);
  });
});

describe("determineAuthChangeEvent", () => {
  it("sees no change in the first status, whatever it says", () => {
    expect(determineAuthChangeEvent(undefined, signedIn)).toBeNull();
    expect(determineAuthChangeEvent(undefined, gone)).toBeNull();
  });

  it("calls going from signed out to signed in a login", () => {
    expect(determineAuthChangeEvent(signedOut, signedIn)).toBe(AUTH_CHANGE_EVENT.LOGIN);
  });

  it("calls completing a pending flow a login", () => {
    expect(determineAuthChangeEvent(pendingTotp, signedInWithTwoMethods)).toBe("login");
  });

  it("calls going from signed in to signed out a logout", () => {
    expect(determineAuthChangeEvent(signedIn, signedOut)).toBe(AUTH_CHANGE_EVENT.LOGOUT);
  });

  it("calls a 410 a logout", () => {
    expect(determineAuthChangeEvent(signedIn, gone)).toBe("logout");
  });

  it("calls a 410 a logout even after a signed-out answer", () => {
    expect(determineAuthChangeEvent(signedOut, gone)).toBe("logout");
  });

  it("calls a 401 while signed in a reauthentication requirement", () => {
    expect(determineAuthChangeEvent(signedIn, needsReauthentication)).toBe(AUTH_CHANGE_EVENT.REAUTHENTICATION_REQUIRED);
  });

  it("calls a second reauthentication 401 a reauthentication requirement again", () => {
    expect(determineAuthChangeEvent(needsReauthentication, needsReauthentication)).toBe("reauthentication-required");
  });

  it("calls signed in after a reauthentication requirement reauthenticated", () => {
    expect(determineAuthChangeEvent(needsReauthentication, signedInAfterReauthentication)).toBe(
      AUTH_CHANGE_EVENT.REAUTHENTICATED,
    );
  });

  it("calls a shrinking methods list reauthenticated", () => {
    expect(determineAuthChangeEvent(signedInWithTwoMethods, signedIn)).toBe("reauthenticated");
  });

  it("calls a methods list that grew by a reauthentication record reauthenticated", () => {
    expect(determineAuthChangeEvent(signedIn, signedInAfterReauthentication)).toBe("reauthenticated");
  });

  it("sees no change between two equal signed-in answers", () => {
    expect(determineAuthChangeEvent(signedIn, signedIn)).toBeNull();
  });

  it("calls a new pending flow while signed out a flow update", () => {
    expect(determineAuthChangeEvent(signedOut, pendingEmailVerification)).toBe(AUTH_CHANGE_EVENT.FLOW_UPDATED);
  });

  it("calls a different pending flow while signed out a flow update", () => {
    expect(determineAuthChangeEvent(pendingLoginByCode, pendingTotp)).toBe("flow-updated");
  });

  it("sees no change when the same flow stays pending", () => {
    expect(determineAuthChangeEvent(pendingTotp, pendingTotp)).toBeNull();
  });

  it("sees no change when a pending flow ends without a login", () => {
    expect(determineAuthChangeEvent(pendingEmailVerification, signedOut)).toBeNull();
  });

  it("calls a changed user id a login, the last of its two events", () => {
    expect(determineAuthChangeEvent(signedIn, signedInAsAnotherUser)).toBe("login");
  });
});

describe("describeAuthChange", () => {
  it("lists a changed user id as a logout followed by a login", () => {
    expect(describeAuthChange(signedIn, signedInAsAnotherUser)).toEqual(["logout", "login"]);
  });

  it("lists a single login as one event", () => {
    expect(describeAuthChange(signedOut, signedIn)).toEqual(["login"]);
  });

  it("lists nothing for the first status", () => {
    expect(describeAuthChange(undefined, signedOut)).toEqual([]);
  });
});
