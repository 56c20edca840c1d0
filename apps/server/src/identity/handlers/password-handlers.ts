import * as v from "valibot";
import { primaryEmailOf, serializeUser, type UserAccount } from "../email-addresses.ts";
import { identityTimeouts } from "../flows.ts";
import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, IdentityStatusError, errorItem, throwIfAny, type IdentityErrorCode } from "../identity-errors.ts";
import { identityMails } from "../identity-mail.ts";
import type { IdentityHandler, IdentityRequest } from "../identity-request.ts";
import { emailField, identityBody, identityBodyAsync, newPasswordField, readValidBody, requiredTextField, textField } from "../identity-validation.ts";
import { authenticationResult, reportSecurityEvent, sendMail } from "../login-stages.ts";
import { hashPassword, validateNewPassword, verifyPassword } from "../passwords.ts";
import { consumeOr429, currentPending, ensureSession, requireAccount, setPending } from "../request-guards.ts";
import { dataResult, statusResult, type IdentityResult, unauthenticatedResult } from "../responses.ts";
import type { SessionState } from "../sessions.ts";

export const requestPasswordResetBody = identityBody({ email: emailField });
/** The new password's rules are checked after the key (allauth says first whether the key is good). */
export const resetPasswordBody = identityBody({ key: requiredTextField, password: requiredTextField });

/** The current password is asked for only when the account has one (a user of a third-party account sets a first one). */
export function changePasswordBody(currentPasswordHash: string | null) {
  return identityBodyAsync({
    current_password:
      currentPasswordHash === null
        ? textField
        : v.pipeAsync(
            requiredTextField,
            v.checkAsync((currentPassword) => verifyPassword(currentPasswordHash, currentPassword), "enter_current_password" satisfies IdentityErrorCode),
          ),
    new_password: newPasswordField,
  });
}

export async function resolvePasswordResetKey(deps: IdentityDependencies, request: IdentityRequest, key: string, consume: boolean): Promise<{ account: UserAccount; email: string; codeId: string }> {
  const { settings, accounts, codes } = deps;
  if (settings.passwordResetByCodeEnabled) {
    const pending = currentPending(request).passwordReset;
    if (!request.session || !pending) {
      throw new IdentityStatusError(409, "No password reset is pending in this session.");
    }
    if (key === "") {
      throw new IdentityInputError([errorItem("required", "key")]);
    }
    const check = await codes.checkSessionCode({
      sessionId: request.session.id,
      purpose: "password_reset",
      typedCode: key,
      now: request.now,
      maximumAttempts: identityTimeouts.passwordResetByCodeMaxAttempts,
      consume,
    });
    if (check.status === "no_process") {
      await setPending(deps, request, { ...currentPending(request), passwordReset: undefined });
      throw new IdentityStatusError(409, "The password reset code has expired or was used up.");
    }
    const account = check.status === "correct" && check.code.user_id ? await accounts.findById(check.code.user_id) : null;
    if (check.status === "incorrect" || !account || check.status !== "correct") {
      if (check.status === "incorrect" && check.attemptsExhausted) {
        await setPending(deps, request, { ...currentPending(request), passwordReset: undefined });
      }
      throw new IdentityInputError([errorItem("incorrect_code", "key")]);
    }
    // Knowing the code proves the address (allauth verifies it indirectly).
    await accounts.markEmailVerified(account.id, check.code.email);
    return { account, email: check.code.email, codeId: check.code.id };
  }
  const stored = key === "" ? null : await codes.findLinkKey("password_reset", key, request.now);
  const account = stored?.user_id ? await accounts.findById(stored.user_id) : null;
  if (!stored || !account) {
    throw new IdentityInputError([errorItem("invalid_password_reset", "key")]);
  }
  if (consume && !(await codes.consume(stored.id, request.now))) {
    throw new IdentityInputError([errorItem("invalid_password_reset", "key")]);
  }
  return { account, email: stored.email, codeId: stored.id };
}

export async function requestPasswordReset(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, accounts, codes, links } = deps;
  const { email } = await readValidBody(request, requestPasswordResetBody);
  await consumeOr429(deps, "reset_password", { ip: request.ip, key: email });
  const found = await accounts.findByEmail(email);
  const account = found && found.isActive ? found : null;
  if (settings.passwordResetByCodeEnabled) {
    const session = await ensureSession(deps, request);
    const code = await codes.issueSessionCode({ purpose: "password_reset", sessionId: session.id, userId: account?.id ?? null, email, now: request.now, lifetimeSeconds: identityTimeouts.passwordResetByCodeTimeoutSeconds });
    await sendMail(deps, account ? identityMails.passwordResetCode(email, code) : identityMails.unknownAccount(email, links.signup));
    await setPending(deps, request, { ...currentPending(request), passwordReset: { userId: account?.id ?? null, email, startedAt: request.now.getTime() } });
    return unauthenticatedResult(settings, currentPending(request));
  }
  if (account) {
    const key = await codes.issueLinkKey({ purpose: "password_reset", userId: account.id, email, now: request.now, lifetimeSeconds: identityTimeouts.passwordResetKeyExpireSeconds });
    await sendMail(deps, identityMails.passwordResetLink(email, links.resetPassword(key)));
  } else {
    await sendMail(deps, identityMails.unknownAccount(email, links.signup));
  }
  return statusResult(200);
}

export async function getPasswordReset(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts } = deps;
  const resolved = await resolvePasswordResetKey(deps, request, request.c.req.header("x-password-reset-key") ?? "", false);
  const account = (await accounts.findById(resolved.account.id)) ?? resolved.account;
  return dataResult({ user: serializeUser(account) });
}

export async function resetPassword(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, accounts, sessions, codes, limits } = deps;
  await consumeOr429(deps, "reset_password_from_key", { ip: request.ip });
  if (settings.passwordResetByCodeEnabled && !currentPending(request).passwordReset) {
    throw new IdentityStatusError(409, "No password reset is pending in this session.");
  }
  const { key, password } = await readValidBody(request, resetPasswordBody);
  await resolvePasswordResetKey(deps, request, key, false);
  throwIfAny(validateNewPassword(password, "password"));
  const resolved = await resolvePasswordResetKey(deps, request, key, true);
  await accounts.setPasswordHash(resolved.account.id, await hashPassword(password));
  await codes.deleteUserCodes(resolved.account.id, "password_reset");
  await limits.clearKey("login_failed", resolved.email);
  await sessions.deleteUserSessions(resolved.account.id);
  if (request.session && request.session.userId === resolved.account.id) {
    request.session = null;
    request.account = null;
    request.sessionEnded = true;
    request.issuedToken = null;
  } else if (request.session) {
    await setPending(deps, request, { ...currentPending(request), passwordReset: undefined });
  }
  await sendMail(deps, identityMails.passwordChanged(resolved.email));
  await reportSecurityEvent(deps, request, resolved.account, "password_reset");
  return unauthenticatedResult(settings, currentPending(request));
}

export async function changePassword(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts, sessions } = deps;
  const account = requireAccount(request);
  await consumeOr429(deps, "change_password", { ip: request.ip, user: account.id });
  const { new_password: newPassword } = await readValidBody(request, changePasswordBody(account.passwordHash));
  await accounts.setPasswordHash(account.id, await hashPassword(newPassword));
  const session = request.session as SessionState;
  // Django keeps this session (with a new key) and ends every other session of the user.
  await sessions.deleteUserSessions(account.id, { exceptSessionId: session.id });
  request.issuedToken = await sessions.rotate(session, { userId: account.id, methods: session.methods, pending: session.pending, now: request.now, signedIn: false });
  request.account = (await accounts.findById(account.id)) ?? account;
  const email = primaryEmailOf(account);
  const isFirstPassword = account.passwordHash === null;
  if (email) {
    await sendMail(deps, isFirstPassword ? identityMails.passwordSet(email) : identityMails.passwordChanged(email));
  }
  await reportSecurityEvent(deps, request, account, isFirstPassword ? "password_set" : "password_changed");
  return authenticationResult(deps, request);
}

/** allauth's password reset (`auth/password/*`) and change (`account/password/change`) endpoints. */
export const passwordHandlers = { requestPasswordReset, getPasswordReset, resetPassword, changePassword } satisfies Record<string, IdentityHandler>;
