import { Hono } from "hono";
import type { IdentityService } from "./identity-service.ts";
import type { IdentityClient } from "./sessions.ts";

/**
 * allauth's headless endpoints implemented so far, for one client kind. Thin: every route is one handler.
 * Mount at `/_allauth/browser/v1` (cookie session, CSRF) and `/_allauth/app/v1` (`X-Session-Token`).
 *
 * @example
 * app.route("/_allauth/browser/v1", createIdentityRoutes(identity, "browser"));
 */
export function createIdentityRoutes(identity: IdentityService, client: IdentityClient): Hono {
  const { handlers, endpoint, settings } = identity;
  const routes = new Hono();
  routes.get("/config", endpoint(client, handlers.config));
  routes.get("/auth/session", endpoint(client, handlers.getSession));
  routes.delete("/auth/session", endpoint(client, handlers.deleteSession));
  routes.post("/auth/login", endpoint(client, handlers.login));
  routes.post("/auth/signup", endpoint(client, handlers.signup));
  routes.post("/auth/reauthenticate", endpoint(client, handlers.reauthenticate));
  if (settings.loginByCodeEnabled) {
    routes.post("/auth/code/request", endpoint(client, handlers.requestLoginCode));
    routes.post("/auth/code/confirm", endpoint(client, handlers.confirmLoginCode));
    routes.post("/auth/code/resend", endpoint(client, handlers.resendLoginCode));
  }
  routes.get("/auth/email/verify", endpoint(client, handlers.getEmailVerification));
  routes.post("/auth/email/verify", endpoint(client, handlers.verifyEmail));
  routes.post("/auth/email/verify/resend", endpoint(client, handlers.resendEmailVerification));
  routes.post("/auth/password/request", endpoint(client, handlers.requestPasswordReset));
  routes.get("/auth/password/reset", endpoint(client, handlers.getPasswordReset));
  routes.post("/auth/password/reset", endpoint(client, handlers.resetPassword));
  routes.post("/account/password/change", endpoint(client, handlers.changePassword));
  routes.get("/account/email", endpoint(client, handlers.listEmailAddresses));
  routes.post("/account/email", endpoint(client, handlers.addEmailAddress));
  routes.put("/account/email", endpoint(client, handlers.resendEmailAddressVerification));
  routes.patch("/account/email", endpoint(client, handlers.markPrimaryEmailAddress));
  routes.delete("/account/email", endpoint(client, handlers.removeEmailAddress));
  if (client === "browser") {
    routes.post("/auth/provider/redirect", endpoint(client, handlers.providerRedirect));
  }
  routes.get("/auth/provider/signup", endpoint(client, handlers.getProviderSignup));
  routes.post("/auth/provider/signup", endpoint(client, handlers.providerSignup));
  routes.get("/account/providers", endpoint(client, handlers.listProviderAccounts));
  routes.delete("/account/providers", endpoint(client, handlers.disconnectProviderAccount));
  routes.get("/auth/sessions", endpoint(client, handlers.listSessions));
  routes.delete("/auth/sessions", endpoint(client, handlers.endSessions));
  const mfaTypes = settings.mfa.supportedTypes;
  routes.get("/account/authenticators", endpoint(client, handlers.listAuthenticators));
  routes.post("/auth/2fa/authenticate", endpoint(client, handlers.authenticate2fa));
  routes.post("/auth/2fa/reauthenticate", endpoint(client, handlers.reauthenticate2fa));
  if (mfaTypes.includes("totp")) {
    routes.get("/account/authenticators/totp", endpoint(client, handlers.getTotp));
    routes.post("/account/authenticators/totp", endpoint(client, handlers.activateTotp));
    routes.delete("/account/authenticators/totp", endpoint(client, handlers.deactivateTotp));
  }
  if (mfaTypes.includes("recovery_codes")) {
    routes.get("/account/authenticators/recovery-codes", endpoint(client, handlers.getRecoveryCodes));
    routes.post("/account/authenticators/recovery-codes", endpoint(client, handlers.regenerateRecoveryCodes));
  }
  if (mfaTypes.includes("webauthn")) {
    routes.get("/account/authenticators/webauthn", endpoint(client, handlers.getWebAuthnCreationOptions));
    routes.post("/account/authenticators/webauthn", endpoint(client, handlers.addWebAuthn));
    routes.put("/account/authenticators/webauthn", endpoint(client, handlers.renameWebAuthn));
    routes.delete("/account/authenticators/webauthn", endpoint(client, handlers.deleteWebAuthn));
    routes.get("/auth/webauthn/authenticate", endpoint(client, handlers.getWebAuthnAuthenticateOptions));
    routes.post("/auth/webauthn/authenticate", endpoint(client, handlers.authenticateWithWebAuthn));
    routes.get("/auth/webauthn/reauthenticate", endpoint(client, handlers.getWebAuthnReauthenticateOptions));
    routes.post("/auth/webauthn/reauthenticate", endpoint(client, handlers.reauthenticateWithWebAuthn));
    if (settings.mfa.passkeyLoginEnabled) {
      routes.get("/auth/webauthn/login", endpoint(client, handlers.getWebAuthnLoginOptions));
      routes.post("/auth/webauthn/login", endpoint(client, handlers.loginWithWebAuthn));
    }
    if (settings.mfa.passkeySignupEnabled) {
      routes.post("/auth/webauthn/signup", endpoint(client, handlers.startPasskeySignup));
      routes.get("/auth/webauthn/signup", endpoint(client, handlers.getPasskeySignupOptions));
      routes.put("/auth/webauthn/signup", endpoint(client, handlers.finishPasskeySignup));
    }
  }
  return routes;
}

/**
 * Where providers send the browser back: allauth's `/accounts/<provider>/login/callback/` (the URL to register at the
 * provider). Always answers a 302: to the callback URL the page asked for, or to `/account/provider/error`.
 *
 * @example
 * app.route("/accounts", createProviderCallbackRoutes(identity));
 */
export function createProviderCallbackRoutes(identity: IdentityService): Hono {
  const routes = new Hono();
  const callback = identity.endpoint("browser", identity.handlers.providerCallback);
  routes.get("/:provider/login/callback/", callback);
  routes.get("/:provider/login/callback", callback);
  return routes;
}
