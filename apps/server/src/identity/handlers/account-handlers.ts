import { primaryEmailOf } from "../email-addresses.ts";
import { epochSecondsOf, passkeyLoginOffered } from "../flows.ts";
import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, IdentityStatusError, errorItem } from "../identity-errors.ts";
import type { IdentityHandler, IdentityRequest } from "../identity-request.ts";
import { emailField, identityBody, newPasswordField, readValidBody, requiredTextField } from "../identity-validation.ts";
import { authenticationResult, continueLogin, reportSecurityEvent, signUp } from "../login-stages.ts";
import { verifyPassword } from "../passwords.ts";
import { describeSocialProviders } from "../providers/provider-description.ts";
import { consumeOr429, currentPending, requireAccount } from "../request-guards.ts";
import { dataResult, type IdentityResult, unauthenticatedResult } from "../responses.ts";
import type { SessionState } from "../sessions.ts";

export const loginBody = identityBody({ email: emailField, password: requiredTextField });
export const signupBody = identityBody({ email: emailField, password: newPasswordField });
export const reauthenticateBody = identityBody({ password: requiredTextField });

export async function config(deps: IdentityDependencies): Promise<IdentityResult> {
  const { settings } = deps;
  return dataResult({
    account: {
      login_methods: ["email"],
      is_open_for_signup: true,
      email_verification_by_code_enabled: settings.emailVerificationByCodeEnabled,
      login_by_code_enabled: settings.loginByCodeEnabled,
      password_reset_by_code_enabled: settings.passwordResetByCodeEnabled,
      authentication_method: "email",
    },
    socialaccount: { providers: describeSocialProviders(settings.socialProviders) },
    mfa: { supported_types: settings.mfa.supportedTypes, passkey_login_enabled: passkeyLoginOffered(settings) },
    usersessions: { track_activity: settings.trackUserSessionActivity },
  });
}

export async function getSession(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  return authenticationResult(deps, request);
}

export async function deleteSession(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, sessions } = deps;
  if (request.session) {
    await sessions.delete(request.session.id);
    request.session = null;
  }
  request.account = null;
  request.sessionEnded = true;
  request.issuedToken = null;
  return unauthenticatedResult(settings, {});
}

export async function login(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, accounts, limits } = deps;
  await consumeOr429(deps, "login", { ip: request.ip });
  const { email, password } = await readValidBody(request, loginBody);
  const failedLogins = await limits.consume("login_failed", { ip: request.ip, key: email });
  if (failedLogins.status === "limited") {
    throw new IdentityInputError([errorItem("too_many_login_attempts")]);
  }
  const account = await accounts.findByEmail(email);
  const passwordMatches = await verifyPassword(account?.passwordHash ?? null, password);
  if (!account || !passwordMatches) {
    if (account) {
      await reportSecurityEvent(deps, request, account, "sign_in_failed", { method: "password" });
    }
    throw new IdentityInputError([errorItem("email_password_mismatch", "password")]);
  }
  if (request.account) {
    throw new IdentityStatusError(409, "Already signed in.");
  }
  await limits.rollback(failedLogins);
  if (!account.isActive) {
    return unauthenticatedResult(settings, currentPending(request));
  }
  return continueLogin(deps, request, account, { method: "password", at: epochSecondsOf(request.now), email }, { blockedMailIsError: true });
}

export async function signup(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  await consumeOr429(deps, "signup", { ip: request.ip });
  const { email, password } = await readValidBody(request, signupBody);
  return signUp(deps, request, email, password);
}

export async function reauthenticate(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { sessions, limits } = deps;
  const account = requireAccount(request);
  await consumeOr429(deps, "reauthenticate", { ip: request.ip, user: account.id });
  const { password } = await readValidBody(request, reauthenticateBody);
  const key = primaryEmailOf(account) ?? account.id;
  const failedLogins = await limits.consume("login_failed", { ip: request.ip, key });
  if (failedLogins.status === "limited") {
    throw new IdentityInputError([errorItem("too_many_login_attempts")]);
  }
  if (!(await verifyPassword(account.passwordHash, password))) {
    throw new IdentityInputError([errorItem("incorrect_password", "password")]);
  }
  await limits.rollback(failedLogins);
  const session = request.session as SessionState;
  session.methods = [...session.methods, { method: "password", at: epochSecondsOf(request.now), reauthenticated: true }];
  await sessions.saveMethods(session.id, session.methods);
  return authenticationResult(deps, request);
}

/** allauth's configuration, session, login, signup and reauthentication endpoints. */
export const accountHandlers = { config, getSession, deleteSession, login, signup, reauthenticate } satisfies Record<string, IdentityHandler>;
