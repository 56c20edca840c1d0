import { redirectForAuthChange, type AuthenticationResponse } from "@atelier/auth";
import { describe, expect, it } from "vitest";
import { atelierAuthRoutes, LOGIN_PATH, LOGIN_REDIRECT_PATH, LOGOUT_REDIRECT_PATH, pathAfterLogout } from "./auth-routes.ts";

describe("given Atelier's pages for the auth redirects (spec §2.1)", () => {
  it("should land a login on /dashboard, a logout on / and the login page on /account/login", () => {
    expect(LOGIN_REDIRECT_PATH).toBe("/dashboard");
    expect(LOGOUT_REDIRECT_PATH).toBe("/");
    expect(LOGIN_PATH).toBe("/account/login");
  });

  it("should send a user logged out on a study configuration or session page to /upload-subtitles, and elsewhere to /", () => {
    expect(pathAfterLogout("/study/42/config")).toBe("/upload-subtitles");
    expect(pathAfterLogout("/study/abc/session?card=3")).toBe("/upload-subtitles");
    expect(pathAfterLogout("/study/42/results")).toBe("/");
    expect(pathAfterLogout("/dashboard")).toBe("/");
  });

  it("should be what the redirects use", () => {
    const response = { status: 200, data: { user: { id: 1, display: "Ada", email: "ada@example.org", has_usable_password: true }, methods: [] }, meta: { is_authenticated: true } } as unknown as AuthenticationResponse;
    expect(redirectForAuthChange("login", { currentPath: "/account/login", response, routes: atelierAuthRoutes })).toBe("/dashboard");
    expect(redirectForAuthChange("logout", { currentPath: "/study/7/session", response, routes: atelierAuthRoutes })).toBe("/upload-subtitles");
  });
});
