import type { IdentityConfiguration } from "../config.ts";

/** One entry of a session's `methods` list (API.md §2); `at` is seconds since the epoch. */
export type AuthenticationRecord =
  | { method: "password"; at: number; email: string }
  | { method: "password"; at: number; reauthenticated: true }
  | { method: "code"; at: number; email: string }
  | { method: "password_reset"; at: number; email: string };

export type LoginStage = "login_by_code" | "verify_email";

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
};

export type PendingPasswordReset = { userId: string | null; email: string; startedAt: number };

/** Everything a session remembers between requests besides its user and methods. */
export type PendingState = { login?: PendingLogin; passwordReset?: PendingPasswordReset };

export type FlowId = "login" | "login_by_code" | "signup" | "verify_email" | "reauthenticate" | "password_reset_by_code";

export type Flow = { id: FlowId; is_pending?: boolean };

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
  const { login, passwordReset } = pending;
  const next: PendingState = {};
  if (login && nowMilliseconds - login.startedAt <= identityTimeouts.loginTimeoutSeconds * 1_000) {
    next.login = login;
  }
  if (passwordReset && nowMilliseconds - passwordReset.startedAt <= identityTimeouts.passwordResetByCodeTimeoutSeconds * 1_000) {
    next.passwordReset = passwordReset;
  }
  return next;
}

/**
 * The flows of a not-authenticated 401, in allauth's order (`_get_flows`, API.md §2): login, login_by_code, signup,
 * then the pending stage (merged into its entry, or appended), then password_reset_by_code when reset by code is on.
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
  if (pending.login) {
    const existing = flows.find((flow) => flow.id === pending.login?.stage);
    if (existing) {
      existing.is_pending = true;
    } else {
      flows.push({ id: pending.login.stage, is_pending: true });
    }
  }
  if (settings.passwordResetByCodeEnabled) {
    flows.push({ id: "password_reset_by_code", is_pending: pending.passwordReset !== undefined });
  }
  return flows;
}

/** The flows of a reauthentication 401: `reauthenticate` only for users with a usable password. */
export function buildReauthenticationFlows(settings: IdentityConfiguration, hasUsablePassword: boolean): Flow[] {
  const flows: Flow[] = hasUsablePassword ? [{ id: "reauthenticate" }] : [];
  if (settings.passwordResetByCodeEnabled) {
    flows.push({ id: "password_reset_by_code", is_pending: false });
  }
  return flows;
}
