import { beforeEach, describe, expect, it } from "vitest";
import { rememberReturnAfterLogin, takeReturnAfterLogin } from "./return-after-login.ts";

describe("given a sign-in that continues on another page", () => {
  beforeEach(() => window.sessionStorage.clear());

  it("should give back the page the modal was opened on, once", () => {
    rememberReturnAfterLogin("/study/g1/session?x=1", 1_000);
    expect(takeReturnAfterLogin(2_000)).toBe("/study/g1/session?x=1");
    expect(takeReturnAfterLogin(3_000)).toBeUndefined();
  });

  it("should forget it after a quarter of an hour", () => {
    rememberReturnAfterLogin("/upload-subtitles", 0);
    expect(takeReturnAfterLogin(15 * 60 * 1000)).toBeUndefined();
  });

  it("should not keep the pages of a sign-in or another flow, or another site's address", () => {
    for (const path of ["/account/login", "/account/login/code/confirm", "/account/signup?next=/x", "/account/authenticate/totp", "/account/reauthenticate", "/account/password/reset/key/abc", "/account/verify-email/abc", "/account/provider/callback", "/account/logout", "/account/deleted", "//evil.example/", "https://evil.example/"]) {
      rememberReturnAfterLogin(path, 0);
      expect(takeReturnAfterLogin(1), path).toBeUndefined();
    }
  });

  it("should keep the signed-in user's own account pages, which a second factor must lead back to", () => {
    for (const path of ["/account", "/account/sessions", "/account/2fa/webauthn", "/account/email", "/account/password/change", "/account/providers", "/account/security"]) {
      rememberReturnAfterLogin(path, 0);
      expect(takeReturnAfterLogin(1), path).toBe(path);
    }
  });
});
