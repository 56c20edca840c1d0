import type { SecurityEventType } from "../account/security-events.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { EmailAddressTakenError, primaryEmailOf, serializeUser, type UserAccount } from "./email-addresses.ts";
import { identityTimeouts, type AuthenticationRecord } from "./flows.ts";
import type { IdentityDependencies } from "./identity-dependencies.ts";
import { IdentityInputError, IdentityStatusError, errorItem } from "./identity-errors.ts";
import { identityMails } from "./identity-mail.ts";
import { toAuthenticatedUser, type IdentityRequest } from "./identity-request.ts";
import { typesOf } from "./mfa/authenticator-store.ts";
import { hashPassword } from "./passwords.ts";
import { currentPending, ensureSession, setPending } from "./request-guards.ts";
import { authenticatedResult, type IdentityResult, unauthenticatedResult } from "./responses.ts";
import { logger } from "../logging/logger.ts";

export async function sendMail(deps: IdentityDependencies, message: MailMessage): Promise<void> {
  const { mailer } = deps;
  const result = await mailer.sendMail(message);
  if (result.status === "error") {
    logger.error({ err: result.error }, `The identity mail "${message.subject}" to ${message.to} could not be sent.`);
  }
}

/** Tells the `onSecurityEvent` hook; its failure never fails the change that already happened. */
export async function reportSecurityEvent(deps: IdentityDependencies, request: IdentityRequest, account: UserAccount, type: SecurityEventType, extra: { method?: string; detail?: string } = {}): Promise<void> {
  if (!deps.onSecurityEvent) {
    return;
  }
  try {
    await deps.onSecurityEvent({ userId: account.id, type, ...extra, ipAddress: request.ip, userAgent: request.userAgent, notifyEmail: primaryEmailOf(account), now: request.now });
  } catch (error) {
    logger.error({ err: error }, `The onSecurityEvent hook failed for "${type}"; the change itself succeeded.`);
  }
}

/** Signs the session in: a new token (and CSRF token), the user, fresh methods, no pending flow. */
export async function signIn(deps: IdentityDependencies, request: IdentityRequest, account: UserAccount, record: AuthenticationRecord | readonly AuthenticationRecord[] | null): Promise<IdentityResult> {
  const { accounts, sessions } = deps;
  const methods: AuthenticationRecord[] = record === null ? [] : Array.isArray(record) ? [...(record as readonly AuthenticationRecord[])] : [record as AuthenticationRecord];
  if (request.session) {
    request.issuedToken = await sessions.rotate(request.session, { userId: account.id, methods, pending: {}, now: request.now, signedIn: true });
    request.session = { ...request.session, userId: account.id, methods, pending: {}, createdAt: request.now.toISOString(), lastSeenAt: request.now.toISOString() };
  } else {
    const { session, token } = await sessions.create({ client: request.client, userId: account.id, methods, pending: {}, ip: request.ip, userAgent: request.userAgent, now: request.now });
    request.session = session;
    request.issuedToken = token;
  }
  request.sessionEnded = false;
  request.rotateCsrf = true;
  request.account = (await accounts.findById(account.id)) ?? account;
  await reportSecurityEvent(deps, request, request.account, "signed_in", { method: methods[0]?.method ?? "signup" });
  if (deps.onUserLoggedIn) {
    try {
      await deps.onUserLoggedIn({ user: toAuthenticatedUser(request.account, request.client, request.session.id), context: request.c });
    } catch (error) {
      logger.error({ err: error }, "The onUserLoggedIn hook failed; the sign-in itself succeeded.");
    }
  }
  return authenticatedResult(serializeUser(request.account), methods);
}

export function authenticationResult(deps: IdentityDependencies, request: IdentityRequest): IdentityResult {
  const { settings } = deps;
  if (request.account && request.session) {
    return authenticatedResult(serializeUser(request.account), request.session.methods);
  }
  return unauthenticatedResult(settings, currentPending(request));
}

/**
 * Sends a verification code (bound to this session) or link. Returns `false` when allauth's `confirm_email` rate
 * limit held the mail back.
 */
export async function sendEmailVerification(deps: IdentityDependencies, request: IdentityRequest, userId: string, email: string): Promise<boolean> {
  return (await sendEmailVerificationOrSayWhenToRetry(deps, request, userId, email)).status === "sent";
}

/** As sendEmailVerification, but a refusal says when the limit has room again (the resend's `Retry-After`). */
export async function sendEmailVerificationOrSayWhenToRetry(deps: IdentityDependencies, request: IdentityRequest, userId: string, email: string): Promise<{ status: "sent" } | { status: "limited"; retryAfterSeconds: number }> {
  const { settings, codes, limits, links } = deps;
  if (settings.emailVerificationByCodeEnabled) {
    const decision = await limits.consume("confirm_email_by_code", { ip: request.ip, key: email });
    if (decision.status === "limited") {
      return decision;
    }
    const session = await ensureSession(deps, request);
    const code = await codes.issueSessionCode({
      purpose: "email_verification",
      sessionId: session.id,
      userId,
      email,
      now: request.now,
      lifetimeSeconds: identityTimeouts.emailVerificationByCodeTimeoutSeconds,
    });
    await sendMail(deps, identityMails.emailVerificationCode(email, code));
    return { status: "sent" };
  }
  const decision = await limits.consume("confirm_email_by_link", { ip: request.ip, key: email });
  if (decision.status === "limited") {
    return decision;
  }
  const key = await codes.issueLinkKey({ purpose: "email_verification", userId, email, now: request.now, lifetimeSeconds: identityTimeouts.emailConfirmationExpireSeconds });
  await sendMail(deps, identityMails.emailVerificationLink(email, links.verifyEmail(key)));
  return { status: "sent" };
}

export function needsVerification(deps: IdentityDependencies, account: UserAccount): boolean {
  const { settings } = deps;
  return settings.emailVerification === "mandatory" && !account.emailAddresses.some((address) => address.verified);
}

/** After credentials are proven: either sign in, or stop at the `verify_email` stage (mandatory verification). */
export async function continueLogin(deps: IdentityDependencies, request: IdentityRequest, account: UserAccount, record: AuthenticationRecord | null, options: { blockedMailIsError: boolean; passkeySignup?: boolean; passwordless?: boolean }): Promise<IdentityResult> {
  const { settings } = deps;
  if (!needsVerification(deps, account)) {
    return afterVerification(deps, request, account, record, options);
  }
  const email = primaryEmailOf(account) ?? "";
  const sent = await sendEmailVerification(deps, request, account.id, email);
  if (!sent && settings.emailVerificationByCodeEnabled && options.blockedMailIsError) {
    throw new IdentityInputError([errorItem("too_many_login_attempts")]);
  }
  await setPending(deps, request, {
    ...currentPending(request),
    login: { stage: "verify_email", userId: account.id, email, startedAt: request.now.getTime(), record, resendCount: 0, ...(options.passkeySignup ? { passkeySignup: true } : {}) },
  });
  return unauthenticatedResult(settings, currentPending(request));
}

/**
 * The last stages of a login (allauth's order: … → verify_email → mfa_authenticate → mfa_signup_webauthn): a passkey
 * signup continues to `mfa_signup_webauthn`; a user with a TOTP or WebAuthn authenticator stops at
 * `mfa_authenticate` (not after a passkey login, which already was two factors); everyone else is signed in.
 */
export async function afterVerification(deps: IdentityDependencies, request: IdentityRequest, account: UserAccount, record: AuthenticationRecord | null, options: { passkeySignup?: boolean; passwordless?: boolean } = {}): Promise<IdentityResult> {
  const { settings, authenticators } = deps;
  const email = primaryEmailOf(account) ?? "";
  if (options.passkeySignup) {
    await setPending(deps, request, { ...currentPending(request), login: { stage: "mfa_signup_webauthn", userId: account.id, email, startedAt: request.now.getTime(), record, resendCount: 0 } });
    return unauthenticatedResult(settings, currentPending(request));
  }
  if (!options.passwordless) {
    const own = (await authenticators.listByUser(account.id)).filter((authenticator) => settings.mfa.supportedTypes.includes(authenticator.type));
    if (own.some((authenticator) => authenticator.type === "totp" || authenticator.type === "webauthn")) {
      await setPending(deps, request, { ...currentPending(request), login: { stage: "mfa_authenticate", userId: account.id, email, startedAt: request.now.getTime(), record, resendCount: 0, types: typesOf(own) } });
      return unauthenticatedResult(settings, currentPending(request));
    }
  }
  return signIn(deps, request, account, record);
}

/** A new account (`createUser`), or null when another sign-up made one with the address meanwhile. */
export async function createUserUnlessTaken(deps: IdentityDependencies, input: Parameters<IdentityDependencies["accounts"]["createUser"]>[0]): Promise<UserAccount | null> {
  try {
    return await deps.accounts.createUser(input);
  } catch (error) {
    if (error instanceof EmailAddressTakenError) return null;
    throw error;
  }
}

/** A signup (with a password, or for a passkey signup without one): enumeration prevention, then the login stages. */
export async function signUp(deps: IdentityDependencies, request: IdentityRequest, email: string, password: string | null): Promise<IdentityResult> {
  const { settings, accounts } = deps;
  if (request.account) {
    throw new IdentityStatusError(409, "Already signed in.");
  }
  if (await accounts.isEmailInUse(email)) {
    // Where the answer is the same as for a new account, so is the work (the password hashed): the time tells nothing.
    if (password !== null && settings.emailVerification === "mandatory") await hashPassword(password);
    return answerSignupWithAddressInUse(deps, request, email);
  }
  const account = await createUserUnlessTaken(deps, { email, passwordHash: password === null ? null : await hashPassword(password), now: request.now });
  // Another sign-up with this address made its account meanwhile; this one was hashed already.
  if (!account) return answerSignupWithAddressInUse(deps, request, email);
  if (settings.emailVerification === "optional") {
    await sendEmailVerification(deps, request, account.id, email);
  }
  return continueLogin(deps, request, account, null, { blockedMailIsError: false, passkeySignup: password === null });
}

/**
 * A signup with an address that is an account's: `email_taken`, or, where e-mail verification is mandatory,
 * enumeration prevention: answer as for a new account, tell the owner by mail, create nothing.
 */
async function answerSignupWithAddressInUse(deps: IdentityDependencies, request: IdentityRequest, email: string): Promise<IdentityResult> {
  const { settings, codes, limits, accountExistsMailLimiter, links } = deps;
  if (settings.emailVerification !== "mandatory") {
    throw new IdentityInputError([errorItem("email_taken", "email")]);
  }
  // The verification mail's rate limit is spent as for a new account, so that the follow-ups (a resend within 10 s
  // answers 429 either way) do not tell the two apart either.
  await limits.consume(settings.emailVerificationByCodeEnabled ? "confirm_email_by_code" : "confirm_email_by_link", { ip: request.ip, key: email });
  // One such mail per address per 5 minutes: repeated sign-ups with someone's address must not flood their inbox.
  if ((await accountExistsMailLimiter.registerRequest(email)).status === "allowed") {
    await sendMail(deps, identityMails.accountAlreadyExists(email, { login: links.login, requestPasswordReset: links.requestPasswordReset }));
  }
  const session = await ensureSession(deps, request);
  if (settings.emailVerificationByCodeEnabled) {
    await codes.issueSessionCode({ purpose: "email_verification", sessionId: session.id, userId: null, email, now: request.now, lifetimeSeconds: identityTimeouts.emailVerificationByCodeTimeoutSeconds });
  }
  await setPending(deps, request, { ...currentPending(request), login: { stage: "verify_email", userId: null, email, startedAt: request.now.getTime(), record: null, resendCount: 0 } });
  return unauthenticatedResult(settings, currentPending(request));
}
