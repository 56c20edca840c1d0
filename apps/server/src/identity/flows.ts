import type { AuthenticatorType, IdentityConfiguration } from "../config.ts";
import { describeSocialProvider, type ProviderDescription } from "./providers/provider-description.ts";

/** allauth's timestamps (`at`, `created_at`, …): seconds since the epoch, with a fraction. */
export function epochSecondsOf(date: Date): number {
  return date.getTime() / 1_000;
}

/** One entry of a session's `methods` list (API.md §2); `at` is seconds since the epoch. */
export type AuthenticationRecord =
  | { method: "password"; at: number; email: string }
  | { method: "password"; at: number; reauthenticated: true }
  | { method: "code"; at: number; email: string }
  | { method: "password_reset"; at: number; email: string }
  | { method: "socialaccount"; at: number; provider: string; uid: string }
  | { method: "mfa"; at: number; id: number; type: AuthenticatorType; reauthenticated?: true; passwordless?: true };

export type LoginStage = "login_by_code" | "verify_email" | "mfa_authenticate" | "mfa_signup_webauthn";

/** A sign-in that has started in this session but waits for a step (allauth's `account_login` in the session). */
export type PendingLogin = {
  stage: LoginStage;
  /** `null` when the address is unknown (enumeration prevention): the step can then only fail. */
  userId: string | null;
  email: string;
  /** Epoch milliseconds; the whole pending login ends after `loginTimeoutSeconds`. */
  startedAt: number;
  /** What the session records once the sign-in completes (`null` after a signup: allauth records nothing). */
  record: AuthenticationRecord | null;
  resendCount: number;
  /** `mfa_authenticate`: the user's authenticator types when the stage began (allauth's `types`, enum order). */
  types?: AuthenticatorType[];
  /** The login is a passkey signup: after `verify_email` comes `mfa_signup_webauthn`. */
  passkeySignup?: boolean;
};

/** A WebAuthn ceremony in progress: the challenge this session handed out, bound to its purpose (and user). */
export type PendingWebAuthn = {
  purpose: "register" | "login" | "authenticate" | "reauthenticate" | "signup";
  challenge: string;
  userId: string | null;
  passwordless: boolean;
  /** Epoch milliseconds. */
  startedAt: number;
};

export type PendingPasswordReset = { userId: string | null; email: string; startedAt: number };

/**
 * A redirect to a provider that has not come back yet (allauth's state in the session): the secrets to check the answer
 * against, what to do with it, and where to send the browser afterwards.
 */
export type PendingProviderRedirect = {
  provider: string;
  process: "login" | "connect";
  callbackUrl: string;
  state: string;
  nonce: string | null;
  codeVerifier: string;
  /** The signed-in user who asked to connect (`null` for a login). */
  userId: string | null;
  startedAt: number;
};

/** A provider sign-in that needs a usable e-mail address before an account can be made (flow `provider_signup`). */
export type PendingProviderSignup = {
  provider: string;
  uid: string;
  email: string | null;
  emailVerified: boolean;
  display: string;
  extraData: Record<string, unknown>;
  startedAt: number;
};

/** Everything a session remembers between requests besides its user and methods. */
export type PendingState = {
  login?: PendingLogin;
  passwordReset?: PendingPasswordReset;
  /** A TOTP secret offered by `GET account/authenticators/totp` (encrypted), until it is activated. */
  totpSetup?: { encryptedSecret: string; startedAt: number };
  webauthn?: PendingWebAuthn;
  /** Newest last; a few at most, so that two tabs can each sign in with a provider. */
  providerRedirects?: PendingProviderRedirect[];
  providerSignup?: PendingProviderSignup;
};

/** Redirects kept per session, and how long the provider may take (allauth keeps states as long as the login). */
export const maximumPendingProviderRedirects = 5;

export type FlowId =
  | "login"
  | "login_by_code"
  | "signup"
  | "provider_redirect"
  | "provider_signup"
  | "verify_email"
  | "reauthenticate"
  | "password_reset_by_code"
  | "mfa_login_webauthn"
  | "mfa_authenticate"
  | "mfa_reauthenticate"
  | "mfa_signup_webauthn";

export type Flow = { id: FlowId; is_pending?: boolean; types?: AuthenticatorType[]; providers?: string[]; provider?: ProviderDescription };

/** allauth's enum order for authenticator types in flows. */
export const authenticatorTypeOrder: readonly AuthenticatorType[] = ["recovery_codes", "totp", "webauthn"];

/** A TOTP setup secret and a WebAuthn challenge stay usable this long (allauth keeps them in the session). */
export const mfaPendingTimeoutSeconds = 900;

/** allauth's defaults for code lifetimes, attempts and resends (API.md §7). */
export const identityTimeouts = {
  loginTimeoutSeconds: 900,
  loginByCodeTimeoutSeconds: 180,
  loginByCodeMaxAttempts: 3,
  emailVerificationByCodeTimeoutSeconds: 900,
  emailVerificationByCodeMaxAttempts: 3,
  passwordResetByCodeTimeoutSeconds: 180,
  passwordResetByCodeMaxAttempts: 3,
  /** allauth's value when `…_SUPPORTS_RESEND = True` (its default is no resend); see decision 0008. */
  maximumResends: 2,
  emailConfirmationExpireSeconds: 3 * 24 * 3600,
  passwordResetKeyExpireSeconds: 3 * 24 * 3600,
  reauthenticationTimeoutSeconds: 300,
  browserSessionSeconds: 14 * 24 * 3600,
  anonymousSessionSeconds: 24 * 3600,
} as const;

/** Drops a pending login that is older than allauth's `ACCOUNT_LOGIN_TIMEOUT`. */
export function withoutExpiredPendingLogin(pending: PendingState, nowMilliseconds: number): PendingState {
  const { login, passwordReset, totpSetup, webauthn, providerRedirects, providerSignup } = pending;
  const next: PendingState = {};
  const loginWindowMilliseconds = identityTimeouts.loginTimeoutSeconds * 1_000;
  const liveRedirects = (providerRedirects ?? []).filter((redirect) => nowMilliseconds - redirect.startedAt <= loginWindowMilliseconds);
  if (liveRedirects.length > 0) {
    next.providerRedirects = liveRedirects;
  }
  if (providerSignup && nowMilliseconds - providerSignup.startedAt <= loginWindowMilliseconds) {
    next.providerSignup = providerSignup;
  }
  if (totpSetup && nowMilliseconds - totpSetup.startedAt <= mfaPendingTimeoutSeconds * 1_000) {
    next.totpSetup = totpSetup;
  }
  if (webauthn && nowMilliseconds - webauthn.startedAt <= mfaPendingTimeoutSeconds * 1_000) {
    next.webauthn = webauthn;
  }
  if (login && nowMilliseconds - login.startedAt <= loginWindowMilliseconds) {
    next.login = login;
  }
  if (passwordReset && nowMilliseconds - passwordReset.startedAt <= identityTimeouts.passwordResetByCodeTimeoutSeconds * 1_000) {
    next.passwordReset = passwordReset;
  }
  return next;
}

/**
 * The flows of a not-authenticated 401, in allauth's order (`_get_flows`, API.md §2): login, login_by_code, signup,
 * provider_redirect, a pending provider_signup, mfa_login_webauthn, then the pending stage (merged into its entry, or appended), then password_reset_by_code when reset by code is on.
 *
 * @example
 * buildUnauthenticatedFlows(settings, {}) // [{id:"login"},{id:"login_by_code"},{id:"signup"}]
 */
export function buildUnauthenticatedFlows(settings: IdentityConfiguration, pending: PendingState): Flow[] {
  const flows: Flow[] = [{ id: "login" }];
  if (settings.loginByCodeEnabled) {
    flows.push({ id: "login_by_code" });
  }
  flows.push({ id: "signup" });
  if (settings.socialProviders.length > 0) {
    flows.push({ id: "provider_redirect", providers: settings.socialProviders.map((provider) => provider.id) });
  }
  const signupProvider = pending.providerSignup ? settings.socialProviders.find((provider) => provider.id === pending.providerSignup?.provider) : undefined;
  if (signupProvider) {
    flows.push({ id: "provider_signup", provider: describeSocialProvider(signupProvider), is_pending: true });
  }
  if (passkeyLoginOffered(settings)) {
    flows.push({ id: "mfa_login_webauthn" });
  }
  if (pending.login) {
    const existing = flows.find((flow) => flow.id === pending.login?.stage);
    if (existing) {
      existing.is_pending = true;
    } else if (pending.login.stage === "mfa_authenticate") {
      flows.push({ id: "mfa_authenticate", is_pending: true, types: pending.login.types ?? [] });
    } else {
      flows.push({ id: pending.login.stage, is_pending: true });
    }
  }
  if (settings.passwordResetByCodeEnabled) {
    flows.push({ id: "password_reset_by_code", is_pending: pending.passwordReset !== undefined });
  }
  return flows;
}

export function passkeyLoginOffered(settings: IdentityConfiguration): boolean {
  return settings.mfa.passkeyLoginEnabled && settings.mfa.supportedTypes.includes("webauthn");
}

/**
 * The flows of a reauthentication 401: `reauthenticate` only for users with a usable password, `mfa_reauthenticate`
 * (with the user's authenticator types in enum order) only for users with an authenticator.
 */
export function buildReauthenticationFlows(settings: IdentityConfiguration, hasUsablePassword: boolean, authenticatorTypes: readonly AuthenticatorType[] = []): Flow[] {
  const flows: Flow[] = hasUsablePassword ? [{ id: "reauthenticate" }] : [];
  if (authenticatorTypes.length > 0) {
    flows.push({ id: "mfa_reauthenticate", types: [...authenticatorTypes] });
  }
  if (settings.passwordResetByCodeEnabled) {
    flows.push({ id: "password_reset_by_code", is_pending: false });
  }
  return flows;
}
