// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  defaultAuthRoutes,
  flowPaths,
  pathForFlow,
  pathForPendingFlow,
  redirectForAuthChange,
  safeLocalPath,
} from "./flow-paths.ts";
import type { Flow, FlowId } from "./schemas.ts";
import {
  authenticatedByPassword,
  reauthenticationRequired,
  unauthenticatedInitial,
  unauthenticatedPendingEmailVerification,
  unauthenticatedPendingProviderSignup,
  unauthenticatedPendingTotp,
} from "./test-support/allauth-answers.ts";
import { asAuthenticationResponse } from "./test-support/parse-answer.ts";

describe("the default routes", () => {
  it("are allauth react-spa's: the login page at /account/login, home after a login, a logout and a reauthentication", () => {
    expect(defaultAuthRoutes).toEqual({ login: "/account/login", afterLogin: "/", afterLogout: "/", afterReauthentication: "/", flows: flowPaths });
  });
});

describe("pathForFlow", () => {
  it.each([
    ["login", "/account/login"],
    ["login_by_code", "/account/login/code/confirm"],
    ["signup", "/account/signup"],
    ["verify_email", "/account/verify-email"],
    ["password_reset_by_code", "/account/password/reset/confirm"],
    ["provider_signup", "/account/provider/signup"],
    ["reauthenticate", "/account/reauthenticate"],
    ["mfa_signup_webauthn", "/account/signup/passkey/create"],
  ] satisfies Array<[FlowId, string]>)("sends the %s flow to %s", (id, path) => {
    expect(pathForFlow({ id })).toBe(path);
  });

  it.each([
    ["totp", "/account/authenticate/totp"],
    ["recovery_codes", "/account/authenticate/recovery-codes"],
    ["webauthn", "/account/authenticate/webauthn"],
  ] as const)("sends second-factor login by %s to %s", (type, path) => {
    expect(pathForFlow({ id: "mfa_authenticate", is_pending: true, types: [type] })).toBe(path);
  });

  it.each([
    ["totp", "/account/reauthenticate/totp"],
    ["recovery_codes", "/account/reauthenticate/recovery-codes"],
    ["webauthn", "/account/reauthenticate/webauthn"],
  ] as const)("sends second-factor reauthentication by %s to %s", (type, path) => {
    expect(pathForFlow({ id: "mfa_reauthenticate", types: [type] })).toBe(path);
  });

  it("chooses the flow's first type", () => {
    expect(pathForFlow({ id: "mfa_authenticate", types: ["recovery_codes", "totp"] })).toBe(
      "/account/authenticate/recovery-codes",
    );
  });

  it("prefers the type asked for over the flow's first type", () => {
    expect(pathForFlow({ id: "mfa_authenticate", types: ["recovery_codes", "totp"] }, "totp")).toBe(
      "/account/authenticate/totp",
    );
  });

  it("sends a second-factor flow without types to the TOTP page", () => {
    expect(pathForFlow({ id: "mfa_authenticate", is_pending: true })).toBe("/account/authenticate/totp");
  });

  it("throws 'Unknown path for flow' for a flow without a page", () => {
    expect(() => pathForFlow({ id: "provider_redirect" })).toThrowError(new Error("Unknown path for flow"));
  });

  it("throws 'Unknown path for flow' for a flow id the client has never heard of", () => {
    const futureFlow = { id: "login_by_carrier_pigeon" } as unknown as Flow;
    expect(() => pathForFlow(futureFlow)).toThrowError("Unknown path for flow");
  });

  it("throws 'Unknown path for flow' for a second-factor type without a page", () => {
    const futureType = { id: "mfa_authenticate", types: ["carrier_pigeon"] } as unknown as Flow;
    expect(() => pathForFlow(futureType)).toThrowError(new Error("Unknown path for flow"));
  });

  it("does not treat Object.prototype keys as flows", () => {
    expect(() => pathForFlow({ id: "constructor" } as unknown as Flow)).toThrowError("Unknown path for flow");
  });

  it("uses the paths passed to it", () => {
    expect(pathForFlow({ id: "mfa_trust" }, undefined, { ...flowPaths, mfa_trust: "/account/2fa/trust" })).toBe(
      "/account/2fa/trust",
    );
  });
});

describe("pathForPendingFlow", () => {
  it("gives the page of the pending flow", () => {
    expect(pathForPendingFlow(asAuthenticationResponse(unauthenticatedPendingEmailVerification))).toBe(
      "/account/verify-email",
    );
    expect(pathForPendingFlow(asAuthenticationResponse(unauthenticatedPendingProviderSignup))).toBe(
      "/account/provider/signup",
    );
  });

  it("gives null when no flow is pending", () => {
    expect(pathForPendingFlow(asAuthenticationResponse(unauthenticatedInitial))).toBeNull();
    expect(pathForPendingFlow(asAuthenticationResponse(authenticatedByPassword))).toBeNull();
    expect(pathForPendingFlow(undefined)).toBeNull();
  });
});

describe("redirectForAuthChange", () => {
  const signedOut = asAuthenticationResponse(unauthenticatedInitial);
  const signedIn = asAuthenticationResponse(authenticatedByPassword);

  /** An app's own pages, as Atelier passes them: the dashboard after a login, study pages logging out elsewhere. */
  const appRoutes = {
    afterLogin: "/dashboard",
    afterLogout: (currentPath: string) => (/^\/study\/[^/]+\/(?:config|session)\/?(?:[?#]|$)/.test(currentPath) ? "/upload-subtitles" : "/"),
  };

  it("sends a logged-out user where the app's routes say, by the page they were on", () => {
    expect(redirectForAuthChange("logout", { currentPath: "/study/42/config", response: signedOut, routes: appRoutes })).toBe("/upload-subtitles");
    expect(redirectForAuthChange("logout", { currentPath: "/study/abc/session?card=3", response: signedOut, routes: appRoutes })).toBe("/upload-subtitles");
    expect(redirectForAuthChange("logout", { currentPath: "/study/42/results", response: signedOut, routes: appRoutes })).toBe("/");
  });

  it("sends a logged-out user home, and a logged-in one home or to the app's page, without routes of one app built in", () => {
    expect(redirectForAuthChange("logout", { currentPath: "/study/42/config", response: signedOut })).toBe("/");
    expect(redirectForAuthChange("login", { currentPath: "/account/login", response: signedIn })).toBe("/");
    expect(redirectForAuthChange("login", { currentPath: "/account/login", response: signedIn, routes: appRoutes })).toBe("/dashboard");
  });

  it("sends a logged-in user to the next parameter when there is one", () => {
    expect(
      redirectForAuthChange("login", { currentPath: "/account/login?next=%2Faccount%2Femail", nextParameter: "/account/email", response: signedIn }),
    ).toBe("/account/email");
  });

  it.each(["/\\evil.example/", "/\tevil.example", "/\t/evil.example/", "/%5Cevil.example".replace("%5C", "\\"), "/\u0000x", "/ /evil.example", "/\u2028x", "javascript:alert(1)", "evil.example", "", "///evil.example"])(
    "ignores the unsafe next parameter %j",
    (nextParameter) => {
      expect(safeLocalPath(nextParameter)).toBeUndefined();
      expect(redirectForAuthChange("login", { currentPath: "/account/login", nextParameter, response: signedIn, routes: appRoutes })).toBe("/dashboard");
    },
  );

  it("keeps a plain path of the site, with its query and fragment", () => {
    expect(safeLocalPath("/study/abc/session?x=1%20y#top")).toBe("/study/abc/session?x=1%20y#top");
  });

  it("ignores a next parameter that leaves the site", () => {
    expect(redirectForAuthChange("login", { currentPath: "/account/login", nextParameter: "//evil.example/", response: signedIn, routes: appRoutes })).toBe(
      "/dashboard",
    );
    expect(redirectForAuthChange("reauthenticated", { currentPath: "/x", nextParameter: "https://evil.example/", response: signedIn })).toBe("/");
  });

  it("sends a reauthenticated user to the next parameter", () => {
    expect(
      redirectForAuthChange("reauthenticated", { currentPath: "/account/reauthenticate", nextParameter: "/account/2fa", response: signedIn }),
    ).toBe("/account/2fa");
  });

  it("sends a reauthenticated user without a next parameter to /", () => {
    expect(redirectForAuthChange("reauthenticated", { currentPath: "/account/reauthenticate", response: signedIn })).toBe("/");
  });

  it("sends a user who must reauthenticate to the first flow's page, carrying the current path as next", () => {
    expect(
      redirectForAuthChange("reauthentication-required", {
        currentPath: "/account/2fa/totp/deactivate?step=1",
        response: asAuthenticationResponse(reauthenticationRequired),
      }),
    ).toBe("/account/reauthenticate?next=%2Faccount%2F2fa%2Ftotp%2Fdeactivate%3Fstep%3D1");
  });

  it("sends a user without a password who must reauthenticate to the second-factor page", () => {
    const mfaOnly = asAuthenticationResponse({
      ...reauthenticationRequired,
      data: { ...reauthenticationRequired.data, flows: [{ id: "mfa_reauthenticate", types: ["totp"] }] },
    });
    expect(redirectForAuthChange("reauthentication-required", { currentPath: "/account/email", response: mfaOnly })).toBe(
      "/account/reauthenticate/totp?next=%2Faccount%2Femail",
    );
  });

  it("stays on the reauthentication page when reauthentication is required again there", () => {
    expect(
      redirectForAuthChange("reauthentication-required", {
        currentPath: "/account/reauthenticate?next=%2Faccount%2Femail",
        response: asAuthenticationResponse(reauthenticationRequired),
      }),
    ).toBeNull();
  });

  it("sends a user whose flow was updated to the pending flow's page", () => {
    expect(
      redirectForAuthChange("flow-updated", { currentPath: "/account/login", response: asAuthenticationResponse(unauthenticatedPendingTotp) }),
    ).toBe("/account/authenticate/totp");
  });

  it("stays put when there is no event", () => {
    expect(redirectForAuthChange(null, { currentPath: "/", response: signedIn })).toBeNull();
  });
});
