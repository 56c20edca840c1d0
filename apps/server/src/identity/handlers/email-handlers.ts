import * as v from "valibot";
import { serializeUser, type EmailAddress } from "../email-addresses.ts";
import { identityTimeouts } from "../flows.ts";
import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, IdentityStatusError, errorItem, type IdentityErrorCode } from "../identity-errors.ts";
import type { IdentityHandler, IdentityRequest } from "../identity-request.ts";
import { emailField, identityBody, ownEmailAddressField, readValidBody, requiredTextField } from "../identity-validation.ts";
import { afterVerification, authenticationResult, reportSecurityEvent, sendEmailVerification, sendEmailVerificationOrSayWhenToRetry } from "../login-stages.ts";
import { consumeOr429, currentPending, requireAccount, requireRecentAuthentication, setPending } from "../request-guards.ts";
import { dataResult, statusResult, type IdentityResult, unauthenticatedResult } from "../responses.ts";
import type { SessionState } from "../sessions.ts";

export const verifyEmailBody = identityBody({ key: requiredTextField });
export const addEmailAddressBody = identityBody({ email: emailField });

/** The body of the `account/email` calls about one of the user's own addresses (resend, remove). */
export function ownEmailAddressBody(ownAddresses: readonly EmailAddress[]) {
  return identityBody({ email: ownEmailAddressField(ownAddresses) });
}

/** `primary` must be `true`: allauth's only way to ask for a new primary address. */
export function markPrimaryEmailAddressBody(ownAddresses: readonly EmailAddress[]) {
  return identityBody({
    email: ownEmailAddressField(ownAddresses),
    primary: v.pipe(
      v.optional(v.unknown(), false),
      v.check((primary) => primary === true, "required" satisfies IdentityErrorCode),
    ),
  });
}

/** Which address and user a verification key or code belongs to; throws allauth's key errors. */
export async function resolveVerificationKey(deps: IdentityDependencies, request: IdentityRequest, key: string, consume: boolean): Promise<{ userId: string; email: string; codeId: string }> {
  const { settings, accounts, codes } = deps;
  if (key === "") {
    throw new IdentityInputError([errorItem("required", "key")]);
  }
  if (settings.emailVerificationByCodeEnabled) {
    const stagePending = currentPending(request).login?.stage === "verify_email";
    if (!request.session || (!stagePending && !request.account)) {
      throw new IdentityStatusError(409, "No e-mail verification is pending in this session.");
    }
    const check = await codes.checkSessionCode({
      sessionId: request.session.id,
      purpose: "email_verification",
      typedCode: key,
      now: request.now,
      maximumAttempts: identityTimeouts.emailVerificationByCodeMaxAttempts,
      consume: false,
    });
    if (check.status === "no_process") {
      throw new IdentityStatusError(409, "No e-mail verification code is pending in this session.");
    }
    if (check.status === "incorrect") {
      if (check.attemptsExhausted && stagePending) {
        await setPending(deps, request, { ...currentPending(request), login: undefined });
      }
      throw new IdentityInputError([errorItem("incorrect_code", "key")]);
    }
    if (!check.code.user_id) {
      throw new IdentityInputError([errorItem("incorrect_code", "key")]);
    }
    if (await accounts.isEmailVerifiedByAnotherUser(check.code.email, check.code.user_id)) {
      throw new IdentityInputError([errorItem("email_taken", "key")]);
    }
    if (consume && !(await codes.consume(check.code.id, request.now))) {
      throw new IdentityStatusError(409, "This code has already been used.");
    }
    return { userId: check.code.user_id, email: check.code.email, codeId: check.code.id };
  }
  const stored = await codes.findLinkKey("email_verification", key, request.now);
  if (!stored || !stored.user_id) {
    throw new IdentityInputError([errorItem("invalid_or_expired_key", "key")]);
  }
  if (await accounts.isEmailVerifiedByAnotherUser(stored.email, stored.user_id)) {
    throw new IdentityInputError([errorItem("email_taken", "key")]);
  }
  if (consume && !(await codes.consume(stored.id, request.now))) {
    throw new IdentityInputError([errorItem("invalid_or_expired_key", "key")]);
  }
  return { userId: stored.user_id, email: stored.email, codeId: stored.id };
}

export async function getEmailVerification(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts } = deps;
  const key = request.c.req.header("x-email-verification-key") ?? "";
  const resolved = await resolveVerificationKey(deps, request, key, false);
  const account = await accounts.findById(resolved.userId);
  if (!account) {
    throw new IdentityInputError([errorItem("invalid_or_expired_key", "key")]);
  }
  return dataResult({ email: resolved.email, user: serializeUser(account) }, { is_authenticating: currentPending(request).login?.stage === "verify_email" });
}

export async function verifyEmail(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, accounts } = deps;
  const { key } = await readValidBody(request, verifyEmailBody);
  const resolved = await resolveVerificationKey(deps, request, key, true);
  await accounts.markEmailVerified(resolved.userId, resolved.email);
  const pending = currentPending(request).login;
  if (pending?.stage === "verify_email" && pending.userId === resolved.userId) {
    await setPending(deps, request, { ...currentPending(request), login: undefined });
    const account = await accounts.findById(resolved.userId);
    if (settings.emailVerificationByCodeEnabled && account && account.isActive) {
      const passwordless = pending.record?.method === "mfa" && pending.record.passwordless === true;
      return afterVerification(deps, request, account, pending.record, { passkeySignup: pending.passkeySignup === true, passwordless });
    }
    // Link mode: allauth's ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION is off, so the stage ends without a sign-in.
    return unauthenticatedResult(settings, currentPending(request));
  }
  if (request.account) {
    request.account = (await accounts.findById(request.account.id)) ?? request.account;
  }
  return authenticationResult(deps, request);
}

export async function resendEmailVerification(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, codes } = deps;
  const pending = currentPending(request).login;
  if (!settings.emailVerificationByCodeEnabled || !request.session || pending?.stage !== "verify_email" || pending.resendCount >= identityTimeouts.maximumResends) {
    throw new IdentityStatusError(409, "No verification code can be sent again now.");
  }
  if (!(await codes.findSessionCode(request.session.id, "email_verification", request.now))) {
    throw new IdentityStatusError(409, "The verification code has expired.");
  }
  if (!pending.userId) {
    // The fake pending signup of an existing address: behave the same, send nothing.
    await consumeOr429(deps, "confirm_email_by_code", { ip: request.ip, key: pending.email });
  } else {
    // The same Retry-After as the fake pending signup's, or the header would tell who has an account.
    const sent = await sendEmailVerificationOrSayWhenToRetry(deps, request, pending.userId, pending.email);
    if (sent.status === "limited") throw new IdentityStatusError(429, "Rate limit confirm_email reached.", { retryAfterSeconds: sent.retryAfterSeconds });
  }
  await setPending(deps, request, { ...currentPending(request), login: { ...pending, resendCount: pending.resendCount + 1 } });
  return statusResult(200);
}

export async function listEmailAddresses(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts } = deps;
  const account = requireAccount(request);
  return dataResult(await accounts.listEmailAddresses(account.id));
}

export async function addEmailAddress(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts } = deps;
  if (!request.account && currentPending(request).login?.stage === "verify_email") {
    throw new IdentityStatusError(409, "Changing the address during signup is not supported.");
  }
  const account = requireAccount(request);
  await requireRecentAuthentication(deps, request);
  await consumeOr429(deps, "manage_email", { ip: request.ip, user: account.id });
  const { email } = await readValidBody(request, addEmailAddressBody);
  // The account as read with the session, and the insert itself: the same address posted twice at once is added once.
  if (account.emailAddresses.some((address) => address.email === email) || !(await accounts.addEmailAddress(account.id, email, request.now))) {
    throw new IdentityInputError([errorItem("duplicate_email", "email")]);
  }
  await sendEmailVerification(deps, request, account.id, email);
  await reportSecurityEvent(deps, request, account, "email_added", { detail: email });
  return dataResult(await accounts.listEmailAddresses(account.id));
}

export async function resendEmailAddressVerification(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const account = requireAccount(request);
  await consumeOr429(deps, "manage_email", { ip: request.ip, user: account.id });
  const { email: address } = await readValidBody(request, ownEmailAddressBody(account.emailAddresses));
  const { email } = address;
  if (address.verified || !(await sendEmailVerification(deps, request, account.id, email))) {
    throw new IdentityStatusError(403, "No verification mail was sent.");
  }
  return statusResult(200);
}

export async function markPrimaryEmailAddress(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts } = deps;
  const account = requireAccount(request);
  await requireRecentAuthentication(deps, request);
  await consumeOr429(deps, "manage_email", { ip: request.ip, user: account.id });
  const { email: address } = await readValidBody(request, markPrimaryEmailAddressBody(account.emailAddresses));
  const { email } = address;
  if (!address.verified) {
    throw new IdentityInputError([errorItem("unverified_primary_email", "email")]);
  }
  if (!(await accounts.setPrimaryEmail(account.id, email))) {
    throw new IdentityInputError([errorItem("unknown_email", "email")]);
  }
  await reportSecurityEvent(deps, request, account, "email_made_primary", { detail: email });
  return dataResult(await accounts.listEmailAddresses(account.id));
}

export async function removeEmailAddress(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts, codes } = deps;
  const account = requireAccount(request);
  await requireRecentAuthentication(deps, request);
  await consumeOr429(deps, "manage_email", { ip: request.ip, user: account.id });
  const { email: address } = await readValidBody(request, ownEmailAddressBody(account.emailAddresses));
  const { email } = address;
  // The address as the request found it, then as it is under the user's lock (another tab may have made it primary).
  const removal = address.primary ? "primary" : await accounts.removeEmailAddress(account.id, email);
  if (removal === "primary") {
    throw new IdentityInputError([errorItem("cannot_remove_primary_email", "email")]);
  }
  if (removal === "gone") {
    throw new IdentityInputError([errorItem("unknown_email", "email")]);
  }
  await reportSecurityEvent(deps, request, account, "email_removed", { detail: email });
  const session = request.session as SessionState;
  const pendingCode = await codes.findSessionCode(session.id, "email_verification", request.now);
  if (pendingCode?.email === email) {
    await codes.deleteSessionCodes(session.id, "email_verification");
  }
  return dataResult(await accounts.listEmailAddresses(account.id));
}

/** allauth's e-mail verification (`auth/email/verify*`) and address management (`account/email`) endpoints. */
export const emailHandlers = {
  getEmailVerification,
  verifyEmail,
  resendEmailVerification,
  listEmailAddresses,
  addEmailAddress,
  resendEmailAddressVerification,
  markPrimaryEmailAddress,
  removeEmailAddress,
} satisfies Record<string, IdentityHandler>;
