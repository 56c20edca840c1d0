import type { SecurityEventReport, SecurityEventType } from "../account/security-events.ts";
import type { Context, Handler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Clock } from "../clock.ts";
import type { Configuration } from "../config.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { IdentityCodePurpose } from "../database/schema.ts";
import { getClientAddress } from "../http/client-address.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { createCodeStore } from "./codes.ts";
import { createCsrfToken, setCsrfCookie } from "./csrf.ts";
import { createAccountStore, isValidEmail, normalizeEmail, primaryEmailOf, serializeUser, type UserAccount } from "./email-addresses.ts";
import { epochSecondsOf, identityTimeouts, passkeyLoginOffered, withoutExpiredPendingLogin, type AuthenticationRecord, type PendingState } from "./flows.ts";
import { AuthenticationRequiredError, ReauthenticationRequiredError, errorItem, IdentityInputError, IdentityStatusError, throwIfAny, type IdentityErrorItem } from "./identity-errors.ts";
import { createIdentityLinks, identityMails } from "./identity-mail.ts";
import { createRateLimiter } from "../rate-limit/rate-limiter.ts";
import { hashPassword, validateNewPassword, verifyPassword } from "./passwords.ts";
import { createIdentityRateLimits, type IdentityRateLimitAction, type IdentityRateLimitDecision } from "./rate-limits.ts";
import {
  authenticatedResult,
  dataResult,
  errorsResult,
  identityCacheHeaders,
  reauthenticationRequiredResult,
  sessionGoneResult,
  statusResult,
  unauthenticatedResult,
  type IdentityResult,
} from "./responses.ts";
import { createSessionStore, type IdentityClient, type SessionState } from "./sessions.ts";
import { createAuthenticatorStore, typesOf } from "./mfa/authenticator-store.ts";
import { createMfaHandlers } from "./mfa/mfa-handlers.ts";
import { describeSocialProviders } from "./providers/provider-description.ts";
import { createProviderHandlers } from "./providers/provider-handlers.ts";
import { createSocialAccountStore } from "./providers/social-account-store.ts";
import { createSocialProviders } from "./providers/social-providers.ts";

export const sessionCookieName = "sessionid";
/**
 * A cookie the page can read (the session cookie is HttpOnly): present while this browser is signed in, so public
 * pages skip asking for the session status of visitors who never signed in. It is only a hint; the status call decides.
 */
export const signedInHintCookieName = "atelier_signed_in";
export const sessionTokenHeaderName = "X-Session-Token";

/** The signed-in user as other server modules see it. */
export type AuthenticatedUser = {
  id: string;
  email: string | null;
  display: string;
  hasUsablePassword: boolean;
  client: IdentityClient;
  /** The internal id of the session (not the token). */
  sessionId: string;
};

/** Called after every completed sign-in (password, code, signup, verification), e.g. to merge anonymous progress. */
export type UserLoggedInEvent = { user: AuthenticatedUser; context: Context };

export type IdentityServiceOptions = {
  configuration: Configuration;
  database: AtelierDatabase;
  mailer: Mailer;
  clock: Clock;
  onUserLoggedIn?: (event: UserLoggedInEvent) => void | Promise<void>;
  /** Called after every security-relevant change or sign-in attempt (issue 18), e.g. to record and mail it. */
  onSecurityEvent?: (report: SecurityEventReport) => void | Promise<void>;
  /** Replaces `fetch` for calls to third-party providers (tests of presets whose servers are out of reach). */
  providerFetch?: typeof globalThis.fetch;
};

/** What one request knows about its session; handlers change it through the service's functions only. */
export type IdentityRequest = {
  c: Context;
  client: IdentityClient;
  now: Date;
  ip: string;
  userAgent: string;
  session: SessionState | null;
  account: UserAccount | null;
  issuedToken: string | null;
  sessionEnded: boolean;
  rotateCsrf: boolean;
};

export type Body = Record<string, unknown>;

const activityWriteIntervalMilliseconds = 60_000;

/**
 * The identity service: allauth's headless API (browser and app clients) over our sessions, codes and accounts.
 *
 * @example
 * const identity = createIdentityService({ configuration, database, mailer, clock });
 * app.route("/_allauth/browser/v1", createIdentityRoutes(identity, "browser"));
 */
export function createIdentityService(options: IdentityServiceOptions) {
  const { configuration, database, mailer, clock } = options;
  const settings = configuration.identity;
  const secureCookies = configuration.publicOrigin.startsWith("https:");
  const accounts = createAccountStore({ database });
  const sessions = createSessionStore({ database });
  const codes = createCodeStore({ database, secretKey: configuration.secretKey });
  const limits = createIdentityRateLimits({ database, clock });
  const accountExistsMailLimiter = createRateLimiter({ database, scope: "identity-mail:account-already-exists", limit: { maximumRequests: 1, windowMilliseconds: 5 * 60_000 }, clock });
  const links = createIdentityLinks(configuration.publicOrigin);
  const authenticators = createAuthenticatorStore({ database });
  const socialAccounts = createSocialAccountStore({ database });
  const socialProviders = createSocialProviders(settings.socialProviders, {
    allowInsecureRequests: configuration.environment !== "production",
    clock,
    ...(options.providerFetch ? { fetch: options.providerFetch } : {}),
  });
  let requestsSincePrune = 0;

  // ---- request plumbing -------------------------------------------------------------------------------------------

  function sentToken(c: Context, client: IdentityClient): string | undefined {
    return client === "browser" ? getCookie(c, sessionCookieName) : c.req.header(sessionTokenHeaderName);
  }

  async function openRequest(c: Context, client: IdentityClient): Promise<IdentityRequest | "gone"> {
    const now = clock();
    const request: IdentityRequest = {
      c,
      client,
      now,
      ip: getClientAddress(c, { trustProxy: configuration.trustProxy }) ?? "unknown",
      userAgent: (c.req.header("user-agent") ?? "").slice(0, 500),
      session: null,
      account: null,
      issuedToken: null,
      sessionEnded: false,
      rotateCsrf: false,
    };
    const token = sentToken(c, client);
    if (!token) {
      return request;
    }
    const session = await sessions.findByToken(token, client, now);
    if (!session) {
      if (client === "app") {
        return "gone";
      }
      request.sessionEnded = true;
      return request;
    }
    const pending = withoutExpiredPendingLogin(session.pending, now.getTime());
    if (JSON.stringify(pending) !== JSON.stringify(session.pending)) {
      session.pending = pending;
      await sessions.savePending(session.id, pending);
    }
    request.session = session;
    if (session.userId) {
      const account = await accounts.findById(session.userId);
      if (!account || !account.isActive) {
        await sessions.delete(session.id);
        request.session = null;
        request.sessionEnded = true;
        return request;
      }
      request.account = account;
      await trackActivity(request, session);
    }
    return request;
  }

  async function trackActivity(request: IdentityRequest, session: SessionState): Promise<void> {
    if (!settings.trackUserSessionActivity) {
      return;
    }
    const changed = session.ip !== request.ip || session.userAgent !== request.userAgent;
    if (changed || request.now.getTime() - new Date(session.lastSeenAt).getTime() >= activityWriteIntervalMilliseconds) {
      await sessions.recordActivity(session.id, { ip: request.ip, userAgent: request.userAgent, now: request.now });
      session.ip = request.ip;
      session.userAgent = request.userAgent;
      session.lastSeenAt = request.now.toISOString();
    }
  }

  function finish(request: IdentityRequest, result: IdentityResult): Response {
    const { c } = request;
    const body = request.client === "app" ? withoutBrowserOnlyFlows(result.body) : result.body;
    if (request.client === "browser") {
      if (request.issuedToken && !request.sessionEnded) {
        setCookie(c, sessionCookieName, request.issuedToken, { path: "/", httpOnly: true, sameSite: "Lax", secure: secureCookies, maxAge: identityTimeouts.browserSessionSeconds });
      } else if (request.sessionEnded) {
        deleteCookie(c, sessionCookieName, { path: "/", secure: secureCookies });
      }
      if (request.rotateCsrf) {
        setCsrfCookie(c, createCsrfToken(), secureCookies);
      }
      const signedIn = request.account !== null && !request.sessionEnded;
      const hinted = getCookie(c, signedInHintCookieName) !== undefined;
      if (signedIn && !hinted) {
        setCookie(c, signedInHintCookieName, "1", { path: "/", httpOnly: false, sameSite: "Lax", secure: secureCookies, maxAge: identityTimeouts.browserSessionSeconds });
      } else if (!signedIn && hinted) {
        deleteCookie(c, signedInHintCookieName, { path: "/", secure: secureCookies });
      }
    } else if (request.issuedToken && !request.sessionEnded && request.issuedToken !== c.req.header(sessionTokenHeaderName)) {
      body.meta = { ...body.meta, session_token: request.issuedToken };
    }
    for (const [name, value] of Object.entries(identityCacheHeaders)) {
      c.header(name, value);
    }
    if (result.redirect !== undefined) {
      return c.redirect(result.redirect, 302);
    }
    return c.json(body, result.status as 200);
  }

  async function toResult(request: IdentityRequest, error: unknown): Promise<IdentityResult> {
    if (error instanceof IdentityInputError) {
      return errorsResult(error.errors);
    }
    if (error instanceof IdentityStatusError) {
      // Every 429 says when to come back, as the contact and upload 429s do.
      if (error.status === 429) request.c.header("Retry-After", String(error.retryAfterSeconds ?? 60));
      return statusResult(error.status);
    }
    if (error instanceof AuthenticationRequiredError) {
      return unauthenticatedResult(settings, request.session?.pending ?? {});
    }
    if (error instanceof ReauthenticationRequiredError && request.account && request.session) {
      const types = typesOf((await authenticators.listByUser(request.account.id)).filter((authenticator) => settings.mfa.supportedTypes.includes(authenticator.type)));
      return reauthenticationRequiredResult(settings, serializeUser(request.account), request.session.methods, types);
    }
    throw error;
  }

  /** Wraps an endpoint: opens the session, maps typed errors to allauth answers, writes cookies or the token. */
  function endpoint(client: IdentityClient, handler: (request: IdentityRequest) => Promise<IdentityResult>): Handler {
    return async (c) => {
      const request = await openRequest(c, client);
      if (request === "gone") {
        for (const [name, value] of Object.entries(identityCacheHeaders)) {
          c.header(name, value);
        }
        return c.json(sessionGoneResult(settings).body, 410);
      }
      let result: IdentityResult;
      try {
        result = await handler(request);
      } catch (error) {
        result = await toResult(request, error);
      }
      requestsSincePrune += 1;
      if (requestsSincePrune >= 500) {
        requestsSincePrune = 0;
        await limits.prune();
      }
      return finish(request, result);
    };
  }

  async function readBody(c: Context): Promise<Body> {
    const text = await c.req.text();
    if (text.trim() === "") {
      return {};
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Body) : {};
    } catch {
      throw new IdentityInputError([errorItem("invalid_json")]);
    }
  }

  function stringField(body: Body, name: string): string {
    const value = body[name];
    return typeof value === "string" ? value : "";
  }

  /** Reads a required, valid e-mail field; pushes `required` or `invalid` to `errors`. */
  function emailField(body: Body, name: string, errors: IdentityErrorItem[]): string {
    const email = stringField(body, name).trim();
    if (email === "") {
      errors.push(errorItem("required", name));
    } else if (!isValidEmail(email)) {
      errors.push(errorItem("invalid", name));
    }
    return normalizeEmail(email);
  }

  async function consumeOr429(action: IdentityRateLimitAction, subject: { ip: string; user?: string; key?: string }): Promise<IdentityRateLimitDecision> {
    const decision = await limits.consume(action, subject);
    if (decision.status === "limited") {
      throw new IdentityStatusError(429, `Rate limit ${action} reached.`, { retryAfterSeconds: decision.retryAfterSeconds });
    }
    return decision;
  }

  /**
   * An authentication record younger than `ACCOUNT_REAUTHENTICATION_TIMEOUT` in this session (a fresh signup has none).
   * A user with no way to reauthenticate (no password, no authenticator) always counts as recent.
   */
  async function hasRecentAuthentication(request: IdentityRequest, account: UserAccount): Promise<boolean> {
    const latest = Math.max(0, ...(request.session?.methods ?? []).map((record) => record.at));
    if (epochSecondsOf(request.now) - latest <= settings.reauthenticationTimeoutSeconds) return true;
    if (account.passwordHash !== null) return false;
    return (await authenticators.listByUser(account.id)).every((authenticator) => !settings.mfa.supportedTypes.includes(authenticator.type));
  }

  /**
   * allauth's `ACCOUNT_REAUTHENTICATION_REQUIRED`: with it on, changing the e-mail addresses or the connected
   * third-party accounts needs a recent authentication.
   */
  async function isRecentlyAuthenticated(request: IdentityRequest, account: UserAccount): Promise<boolean> {
    return !settings.reauthenticationRequired || hasRecentAuthentication(request, account);
  }

  async function requireRecentAuthentication(request: IdentityRequest): Promise<void> {
    if (request.account && !(await isRecentlyAuthenticated(request, request.account))) {
      throw new ReauthenticationRequiredError();
    }
  }

  function requireAccount(request: IdentityRequest): UserAccount {
    if (!request.account) {
      throw new AuthenticationRequiredError();
    }
    return request.account;
  }

  async function ensureSession(request: IdentityRequest): Promise<SessionState> {
    if (request.session) {
      return request.session;
    }
    const { session, token } = await sessions.create({ client: request.client, userId: null, methods: [], pending: {}, ip: request.ip, userAgent: request.userAgent, now: request.now });
    request.session = session;
    request.issuedToken = token;
    request.sessionEnded = false;
    return session;
  }

  async function setPending(request: IdentityRequest, pending: PendingState): Promise<void> {
    const session = await ensureSession(request);
    session.pending = pending;
    await sessions.savePending(session.id, pending);
  }

  function currentPending(request: IdentityRequest): PendingState {
    return request.session?.pending ?? {};
  }

  async function sendMail(message: MailMessage): Promise<void> {
    const result = await mailer.sendMail(message);
    if (result.status === "error") {
      console.error(`The identity mail "${message.subject}" to ${message.to} could not be sent.`, result.error);
    }
  }

  /** Tells the `onSecurityEvent` hook; its failure never fails the change that already happened. */
  async function reportSecurityEvent(request: IdentityRequest, account: UserAccount, type: SecurityEventType, extra: { method?: string; detail?: string } = {}): Promise<void> {
    if (!options.onSecurityEvent) {
      return;
    }
    try {
      await options.onSecurityEvent({ userId: account.id, type, ...extra, ipAddress: request.ip, userAgent: request.userAgent, notifyEmail: primaryEmailOf(account), now: request.now });
    } catch (error) {
      console.error(`The onSecurityEvent hook failed for "${type}"; the change itself succeeded.`, error);
    }
  }

  function toAuthenticatedUser(account: UserAccount, client: IdentityClient, sessionId: string): AuthenticatedUser {
    const user = serializeUser(account);
    return { id: account.id, email: user.email ?? null, display: user.display, hasUsablePassword: user.has_usable_password, client, sessionId };
  }

  /** Signs the session in: a new token (and CSRF token), the user, fresh methods, no pending flow. */
  async function signIn(request: IdentityRequest, account: UserAccount, record: AuthenticationRecord | readonly AuthenticationRecord[] | null): Promise<IdentityResult> {
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
    await reportSecurityEvent(request, request.account, "signed_in", { method: methods[0]?.method ?? "signup" });
    if (options.onUserLoggedIn) {
      try {
        await options.onUserLoggedIn({ user: toAuthenticatedUser(request.account, request.client, request.session.id), context: request.c });
      } catch (error) {
        console.error("The onUserLoggedIn hook failed; the sign-in itself succeeded.", error);
      }
    }
    return authenticatedResult(serializeUser(request.account), methods);
  }

  function authenticationResult(request: IdentityRequest): IdentityResult {
    if (request.account && request.session) {
      return authenticatedResult(serializeUser(request.account), request.session.methods);
    }
    return unauthenticatedResult(settings, currentPending(request));
  }

  // ---- e-mail verification --------------------------------------------------------------------------------------

  /**
   * Sends a verification code (bound to this session) or link. Returns `false` when allauth's `confirm_email` rate
   * limit held the mail back.
   */
  async function sendEmailVerification(request: IdentityRequest, userId: string, email: string): Promise<boolean> {
    return (await sendEmailVerificationOrSayWhenToRetry(request, userId, email)).status === "sent";
  }

  /** As sendEmailVerification, but a refusal says when the limit has room again (the resend's `Retry-After`). */
  async function sendEmailVerificationOrSayWhenToRetry(request: IdentityRequest, userId: string, email: string): Promise<{ status: "sent" } | { status: "limited"; retryAfterSeconds: number }> {
    if (settings.emailVerificationByCodeEnabled) {
      const decision = await limits.consume("confirm_email_by_code", { ip: request.ip, key: email });
      if (decision.status === "limited") {
        return decision;
      }
      const session = await ensureSession(request);
      const code = await codes.issueSessionCode({
        purpose: "email_verification",
        sessionId: session.id,
        userId,
        email,
        now: request.now,
        lifetimeSeconds: identityTimeouts.emailVerificationByCodeTimeoutSeconds,
      });
      await sendMail(identityMails.emailVerificationCode(email, code));
      return { status: "sent" };
    }
    const decision = await limits.consume("confirm_email_by_link", { ip: request.ip, key: email });
    if (decision.status === "limited") {
      return decision;
    }
    const key = await codes.issueLinkKey({ purpose: "email_verification", userId, email, now: request.now, lifetimeSeconds: identityTimeouts.emailConfirmationExpireSeconds });
    await sendMail(identityMails.emailVerificationLink(email, links.verifyEmail(key)));
    return { status: "sent" };
  }

  function needsVerification(account: UserAccount): boolean {
    return settings.emailVerification === "mandatory" && !account.emailAddresses.some((address) => address.verified);
  }

  /**
   * The last stages of a login (allauth's order: … → verify_email → mfa_authenticate → mfa_signup_webauthn): a passkey
   * signup continues to `mfa_signup_webauthn`; a user with a TOTP or WebAuthn authenticator stops at
   * `mfa_authenticate` (not after a passkey login, which already was two factors); everyone else is signed in.
   */
  async function afterVerification(request: IdentityRequest, account: UserAccount, record: AuthenticationRecord | null, options: { passkeySignup?: boolean; passwordless?: boolean } = {}): Promise<IdentityResult> {
    const email = primaryEmailOf(account) ?? "";
    if (options.passkeySignup) {
      await setPending(request, { ...currentPending(request), login: { stage: "mfa_signup_webauthn", userId: account.id, email, startedAt: request.now.getTime(), record, resendCount: 0 } });
      return unauthenticatedResult(settings, currentPending(request));
    }
    if (!options.passwordless) {
      const own = (await authenticators.listByUser(account.id)).filter((authenticator) => settings.mfa.supportedTypes.includes(authenticator.type));
      if (own.some((authenticator) => authenticator.type === "totp" || authenticator.type === "webauthn")) {
        await setPending(request, { ...currentPending(request), login: { stage: "mfa_authenticate", userId: account.id, email, startedAt: request.now.getTime(), record, resendCount: 0, types: typesOf(own) } });
        return unauthenticatedResult(settings, currentPending(request));
      }
    }
    return signIn(request, account, record);
  }

  /** After credentials are proven: either sign in, or stop at the `verify_email` stage (mandatory verification). */
  async function continueLogin(request: IdentityRequest, account: UserAccount, record: AuthenticationRecord | null, options: { blockedMailIsError: boolean; passkeySignup?: boolean; passwordless?: boolean }): Promise<IdentityResult> {
    if (!needsVerification(account)) {
      return afterVerification(request, account, record, options);
    }
    const email = primaryEmailOf(account) ?? "";
    const sent = await sendEmailVerification(request, account.id, email);
    if (!sent && settings.emailVerificationByCodeEnabled && options.blockedMailIsError) {
      throw new IdentityInputError([errorItem("too_many_login_attempts")]);
    }
    await setPending(request, {
      ...currentPending(request),
      login: { stage: "verify_email", userId: account.id, email, startedAt: request.now.getTime(), record, resendCount: 0, ...(options.passkeySignup ? { passkeySignup: true } : {}) },
    });
    return unauthenticatedResult(settings, currentPending(request));
  }

  /** Which address and user a verification key or code belongs to; throws allauth's key errors. */
  async function resolveVerificationKey(request: IdentityRequest, key: string, consume: boolean): Promise<{ userId: string; email: string; codeId: string }> {
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
          await setPending(request, { ...currentPending(request), login: undefined });
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

  // ---- password reset ---------------------------------------------------------------------------------------------

  async function resolvePasswordResetKey(request: IdentityRequest, key: string, consume: boolean): Promise<{ account: UserAccount; email: string; codeId: string }> {
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
        await setPending(request, { ...currentPending(request), passwordReset: undefined });
        throw new IdentityStatusError(409, "The password reset code has expired or was used up.");
      }
      const account = check.status === "correct" && check.code.user_id ? await accounts.findById(check.code.user_id) : null;
      if (check.status === "incorrect" || !account || check.status !== "correct") {
        if (check.status === "incorrect" && check.attemptsExhausted) {
          await setPending(request, { ...currentPending(request), passwordReset: undefined });
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

  /** A signup (with a password, or for a passkey signup without one): enumeration prevention, then the login stages. */
  async function signUp(request: IdentityRequest, email: string, password: string | null): Promise<IdentityResult> {
    if (request.account) {
      throw new IdentityStatusError(409, "Already signed in.");
    }
    if (await accounts.isEmailInUse(email)) {
      if (settings.emailVerification !== "mandatory") {
        throw new IdentityInputError([errorItem("email_taken", "email")]);
      }
      // Enumeration prevention: answer as for a new account, tell the owner by mail, create nothing. The same work as
      // a new account (the password hashed, the verification mail's rate limit spent) keeps the time and the follow-ups
      // (a resend within 10 s answers 429 either way) from telling the two apart.
      if (password !== null) await hashPassword(password);
      await limits.consume(settings.emailVerificationByCodeEnabled ? "confirm_email_by_code" : "confirm_email_by_link", { ip: request.ip, key: email });
      // One such mail per address per 5 minutes: repeated sign-ups with someone's address must not flood their inbox.
      if ((await accountExistsMailLimiter.registerRequest(email)).status === "allowed") {
        await sendMail(identityMails.accountAlreadyExists(email, { login: links.login, requestPasswordReset: links.requestPasswordReset }));
      }
      const session = await ensureSession(request);
      if (settings.emailVerificationByCodeEnabled) {
        await codes.issueSessionCode({ purpose: "email_verification", sessionId: session.id, userId: null, email, now: request.now, lifetimeSeconds: identityTimeouts.emailVerificationByCodeTimeoutSeconds });
      }
      await setPending(request, { ...currentPending(request), login: { stage: "verify_email", userId: null, email, startedAt: request.now.getTime(), record: null, resendCount: 0 } });
      return unauthenticatedResult(settings, currentPending(request));
    }
    const account = await accounts.createUser({ email, passwordHash: password === null ? null : await hashPassword(password), now: request.now });
    if (settings.emailVerification === "optional") {
      await sendEmailVerification(request, account.id, email);
    }
    return continueLogin(request, account, null, { blockedMailIsError: false, passkeySignup: password === null });
  }

  /** allauth lists `provider_redirect` for browser clients only (API.md §2): an app cannot follow a form post's redirect. */
  function withoutBrowserOnlyFlows(body: IdentityResult["body"]): IdentityResult["body"] {
    const data = (body as { data?: { flows?: unknown } } | undefined)?.data;
    if (!data || !Array.isArray(data.flows)) return body;
    return { ...(body as object), data: { ...data, flows: data.flows.filter((flow: { id?: unknown }) => flow.id !== "provider_redirect") } } as IdentityResult["body"];
  }

  // ---- endpoints --------------------------------------------------------------------------------------------------

  const handlers = {
    config: async (): Promise<IdentityResult> =>
      dataResult({
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
      }),

    getSession: async (request: IdentityRequest): Promise<IdentityResult> => authenticationResult(request),

    deleteSession: async (request: IdentityRequest): Promise<IdentityResult> => {
      if (request.session) {
        await sessions.delete(request.session.id);
        request.session = null;
      }
      request.account = null;
      request.sessionEnded = true;
      request.issuedToken = null;
      return unauthenticatedResult(settings, {});
    },

    login: async (request: IdentityRequest): Promise<IdentityResult> => {
      await consumeOr429("login", { ip: request.ip });
      const body = await readBody(request.c);
      const errors: IdentityErrorItem[] = [];
      const email = emailField(body, "email", errors);
      const password = stringField(body, "password");
      if (password === "") {
        errors.push(errorItem("required", "password"));
      }
      throwIfAny(errors);
      const failedLogins = await limits.consume("login_failed", { ip: request.ip, key: email });
      if (failedLogins.status === "limited") {
        throw new IdentityInputError([errorItem("too_many_login_attempts")]);
      }
      const account = await accounts.findByEmail(email);
      const passwordMatches = await verifyPassword(account?.passwordHash ?? null, password);
      if (!account || !passwordMatches) {
        if (account) {
          await reportSecurityEvent(request, account, "sign_in_failed", { method: "password" });
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
      return continueLogin(request, account, { method: "password", at: epochSecondsOf(request.now), email }, { blockedMailIsError: true });
    },

    signup: async (request: IdentityRequest): Promise<IdentityResult> => {
      await consumeOr429("signup", { ip: request.ip });
      const body = await readBody(request.c);
      const errors: IdentityErrorItem[] = [];
      const email = emailField(body, "email", errors);
      const password = stringField(body, "password");
      if (password === "") {
        errors.push(errorItem("required", "password"));
      } else {
        errors.push(...validateNewPassword(password, "password"));
      }
      throwIfAny(errors);
      return signUp(request, email, password);
    },

    reauthenticate: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await consumeOr429("reauthenticate", { ip: request.ip, user: account.id });
      const body = await readBody(request.c);
      const password = stringField(body, "password");
      throwIfAny(password === "" ? [errorItem("required", "password")] : []);
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
      return authenticationResult(request);
    },

    requestLoginCode: async (request: IdentityRequest): Promise<IdentityResult> => {
      const body = await readBody(request.c);
      const errors: IdentityErrorItem[] = [];
      const email = emailField(body, "email", errors);
      throwIfAny(errors);
      if ((await limits.consume("request_login_code", { ip: request.ip, key: email })).status === "limited") {
        throw new IdentityInputError([errorItem("too_many_login_attempts", "email")]);
      }
      if (request.account) {
        throw new IdentityStatusError(409, "Already signed in.");
      }
      const account = await accounts.findByEmail(email);
      const session = await ensureSession(request);
      const usableAccount = account && account.isActive ? account : null;
      const code = await codes.issueSessionCode({ purpose: "login_by_code", sessionId: session.id, userId: usableAccount?.id ?? null, email, now: request.now, lifetimeSeconds: identityTimeouts.loginByCodeTimeoutSeconds });
      await sendMail(usableAccount ? identityMails.loginCode(email, code) : identityMails.unknownAccount(email, links.signup));
      await setPending(request, { ...currentPending(request), login: { stage: "login_by_code", userId: usableAccount?.id ?? null, email, startedAt: request.now.getTime(), record: null, resendCount: 0 } });
      return unauthenticatedResult(settings, currentPending(request));
    },

    confirmLoginCode: async (request: IdentityRequest): Promise<IdentityResult> => {
      const pending = currentPending(request).login;
      if (!request.session || pending?.stage !== "login_by_code") {
        throw new IdentityStatusError(409, "No sign-in code is pending in this session.");
      }
      const body = await readBody(request.c);
      const typedCode = stringField(body, "code");
      throwIfAny(typedCode.trim() === "" ? [errorItem("required", "code")] : []);
      const check = await codes.checkSessionCode({
        sessionId: request.session.id,
        purpose: "login_by_code",
        typedCode,
        now: request.now,
        maximumAttempts: identityTimeouts.loginByCodeMaxAttempts,
        consume: true,
      });
      if (check.status === "no_process") {
        await setPending(request, { ...currentPending(request), login: undefined });
        throw new IdentityStatusError(409, "The sign-in code has expired.");
      }
      if (check.status === "incorrect" || !check.code.user_id) {
        if (check.status === "incorrect" && check.attemptsExhausted) {
          await setPending(request, { ...currentPending(request), login: undefined });
        }
        throw new IdentityInputError([errorItem("incorrect_code", "code")]);
      }
      const account = await accounts.findById(check.code.user_id);
      if (!account || !account.isActive) {
        throw new IdentityInputError([errorItem("incorrect_code", "code")]);
      }
      await accounts.markEmailVerified(account.id, check.code.email);
      return afterVerification(request, account, { method: "code", at: epochSecondsOf(request.now), email: check.code.email });
    },

    resendLoginCode: async (request: IdentityRequest): Promise<IdentityResult> => {
      const pending = currentPending(request).login;
      if (!request.session || pending?.stage !== "login_by_code" || pending.resendCount >= identityTimeouts.maximumResends) {
        throw new IdentityStatusError(409, "No sign-in code can be sent again now.");
      }
      if (!(await codes.findSessionCode(request.session.id, "login_by_code", request.now))) {
        throw new IdentityStatusError(409, "The sign-in code has expired.");
      }
      await consumeOr429("request_login_code", { ip: request.ip, key: pending.email });
      const code = await codes.issueSessionCode({ purpose: "login_by_code", sessionId: request.session.id, userId: pending.userId, email: pending.email, now: request.now, lifetimeSeconds: identityTimeouts.loginByCodeTimeoutSeconds });
      if (pending.userId) {
        await sendMail(identityMails.loginCode(pending.email, code));
      }
      await setPending(request, { ...currentPending(request), login: { ...pending, resendCount: pending.resendCount + 1 } });
      return statusResult(200);
    },

    getEmailVerification: async (request: IdentityRequest): Promise<IdentityResult> => {
      const key = request.c.req.header("x-email-verification-key") ?? "";
      const resolved = await resolveVerificationKey(request, key, false);
      const account = await accounts.findById(resolved.userId);
      if (!account) {
        throw new IdentityInputError([errorItem("invalid_or_expired_key", "key")]);
      }
      return dataResult({ email: resolved.email, user: serializeUser(account) }, { is_authenticating: currentPending(request).login?.stage === "verify_email" });
    },

    verifyEmail: async (request: IdentityRequest): Promise<IdentityResult> => {
      const body = await readBody(request.c);
      const resolved = await resolveVerificationKey(request, stringField(body, "key"), true);
      await accounts.markEmailVerified(resolved.userId, resolved.email);
      const pending = currentPending(request).login;
      if (pending?.stage === "verify_email" && pending.userId === resolved.userId) {
        await setPending(request, { ...currentPending(request), login: undefined });
        const account = await accounts.findById(resolved.userId);
        if (settings.emailVerificationByCodeEnabled && account && account.isActive) {
          const passwordless = pending.record?.method === "mfa" && pending.record.passwordless === true;
          return afterVerification(request, account, pending.record, { passkeySignup: pending.passkeySignup === true, passwordless });
        }
        // Link mode: allauth's ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION is off, so the stage ends without a sign-in.
        return unauthenticatedResult(settings, currentPending(request));
      }
      if (request.account) {
        request.account = (await accounts.findById(request.account.id)) ?? request.account;
      }
      return authenticationResult(request);
    },

    resendEmailVerification: async (request: IdentityRequest): Promise<IdentityResult> => {
      const pending = currentPending(request).login;
      if (!settings.emailVerificationByCodeEnabled || !request.session || pending?.stage !== "verify_email" || pending.resendCount >= identityTimeouts.maximumResends) {
        throw new IdentityStatusError(409, "No verification code can be sent again now.");
      }
      if (!(await codes.findSessionCode(request.session.id, "email_verification", request.now))) {
        throw new IdentityStatusError(409, "The verification code has expired.");
      }
      if (!pending.userId) {
        // The fake pending signup of an existing address: behave the same, send nothing.
        await consumeOr429("confirm_email_by_code", { ip: request.ip, key: pending.email });
      } else {
        // The same Retry-After as the fake pending signup's, or the header would tell who has an account.
        const sent = await sendEmailVerificationOrSayWhenToRetry(request, pending.userId, pending.email);
        if (sent.status === "limited") throw new IdentityStatusError(429, "Rate limit confirm_email reached.", { retryAfterSeconds: sent.retryAfterSeconds });
      }
      await setPending(request, { ...currentPending(request), login: { ...pending, resendCount: pending.resendCount + 1 } });
      return statusResult(200);
    },

    requestPasswordReset: async (request: IdentityRequest): Promise<IdentityResult> => {
      const body = await readBody(request.c);
      const errors: IdentityErrorItem[] = [];
      const email = emailField(body, "email", errors);
      throwIfAny(errors);
      await consumeOr429("reset_password", { ip: request.ip, key: email });
      const found = await accounts.findByEmail(email);
      const account = found && found.isActive ? found : null;
      if (settings.passwordResetByCodeEnabled) {
        const session = await ensureSession(request);
        const code = await codes.issueSessionCode({ purpose: "password_reset", sessionId: session.id, userId: account?.id ?? null, email, now: request.now, lifetimeSeconds: identityTimeouts.passwordResetByCodeTimeoutSeconds });
        await sendMail(account ? identityMails.passwordResetCode(email, code) : identityMails.unknownAccount(email, links.signup));
        await setPending(request, { ...currentPending(request), passwordReset: { userId: account?.id ?? null, email, startedAt: request.now.getTime() } });
        return unauthenticatedResult(settings, currentPending(request));
      }
      if (account) {
        const key = await codes.issueLinkKey({ purpose: "password_reset", userId: account.id, email, now: request.now, lifetimeSeconds: identityTimeouts.passwordResetKeyExpireSeconds });
        await sendMail(identityMails.passwordResetLink(email, links.resetPassword(key)));
      } else {
        await sendMail(identityMails.unknownAccount(email, links.signup));
      }
      return statusResult(200);
    },

    getPasswordReset: async (request: IdentityRequest): Promise<IdentityResult> => {
      const resolved = await resolvePasswordResetKey(request, request.c.req.header("x-password-reset-key") ?? "", false);
      const account = (await accounts.findById(resolved.account.id)) ?? resolved.account;
      return dataResult({ user: serializeUser(account) });
    },

    resetPassword: async (request: IdentityRequest): Promise<IdentityResult> => {
      await consumeOr429("reset_password_from_key", { ip: request.ip });
      if (settings.passwordResetByCodeEnabled && !currentPending(request).passwordReset) {
        throw new IdentityStatusError(409, "No password reset is pending in this session.");
      }
      const body = await readBody(request.c);
      const key = stringField(body, "key");
      const password = stringField(body, "password");
      const errors: IdentityErrorItem[] = [];
      if (key === "") {
        errors.push(errorItem("required", "key"));
      }
      if (password === "") {
        errors.push(errorItem("required", "password"));
      }
      throwIfAny(errors);
      await resolvePasswordResetKey(request, key, false);
      throwIfAny(validateNewPassword(password, "password"));
      const resolved = await resolvePasswordResetKey(request, key, true);
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
        await setPending(request, { ...currentPending(request), passwordReset: undefined });
      }
      await sendMail(identityMails.passwordChanged(resolved.email));
      await reportSecurityEvent(request, resolved.account, "password_reset");
      return unauthenticatedResult(settings, currentPending(request));
    },

    changePassword: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await consumeOr429("change_password", { ip: request.ip, user: account.id });
      const body = await readBody(request.c);
      const currentPassword = stringField(body, "current_password");
      const newPassword = stringField(body, "new_password");
      const errors: IdentityErrorItem[] = [];
      if (account.passwordHash !== null) {
        if (currentPassword === "") {
          errors.push(errorItem("required", "current_password"));
        } else if (!(await verifyPassword(account.passwordHash, currentPassword))) {
          errors.push(errorItem("enter_current_password", "current_password"));
        }
      }
      if (newPassword === "") {
        errors.push(errorItem("required", "new_password"));
      } else {
        errors.push(...validateNewPassword(newPassword, "new_password"));
      }
      throwIfAny(errors);
      await accounts.setPasswordHash(account.id, await hashPassword(newPassword));
      const session = request.session as SessionState;
      // Django keeps this session (with a new key) and ends every other session of the user.
      await sessions.deleteUserSessions(account.id, { exceptSessionId: session.id });
      request.issuedToken = await sessions.rotate(session, { userId: account.id, methods: session.methods, pending: session.pending, now: request.now, signedIn: false });
      request.account = (await accounts.findById(account.id)) ?? account;
      const email = primaryEmailOf(account);
      if (email) {
        await sendMail(identityMails.passwordChanged(email));
      }
      await reportSecurityEvent(request, account, account.passwordHash === null ? "password_set" : "password_changed");
      return authenticationResult(request);
    },

    listEmailAddresses: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      return dataResult(await accounts.listEmailAddresses(account.id));
    },

    addEmailAddress: async (request: IdentityRequest): Promise<IdentityResult> => {
      if (!request.account && currentPending(request).login?.stage === "verify_email") {
        throw new IdentityStatusError(409, "Changing the address during signup is not supported.");
      }
      const account = requireAccount(request);
      await requireRecentAuthentication(request);
      await consumeOr429("manage_email", { ip: request.ip, user: account.id });
      const body = await readBody(request.c);
      const errors: IdentityErrorItem[] = [];
      const email = emailField(body, "email", errors);
      throwIfAny(errors);
      if (account.emailAddresses.some((address) => address.email === email)) {
        throw new IdentityInputError([errorItem("duplicate_email", "email")]);
      }
      await accounts.addEmailAddress(account.id, email, request.now);
      await sendEmailVerification(request, account.id, email);
      await reportSecurityEvent(request, account, "email_added", { detail: email });
      return dataResult(await accounts.listEmailAddresses(account.id));
    },

    resendEmailAddressVerification: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await consumeOr429("manage_email", { ip: request.ip, user: account.id });
      const body = await readBody(request.c);
      const email = normalizeEmail(stringField(body, "email"));
      const address = account.emailAddresses.find((candidate) => candidate.email === email);
      if (!address) {
        throw new IdentityInputError([errorItem(email === "" ? "required" : "unknown_email", "email")]);
      }
      if (address.verified || !(await sendEmailVerification(request, account.id, email))) {
        throw new IdentityStatusError(403, "No verification mail was sent.");
      }
      return statusResult(200);
    },

    markPrimaryEmailAddress: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await requireRecentAuthentication(request);
      await consumeOr429("manage_email", { ip: request.ip, user: account.id });
      const body = await readBody(request.c);
      const email = normalizeEmail(stringField(body, "email"));
      const errors: IdentityErrorItem[] = [];
      const address = account.emailAddresses.find((candidate) => candidate.email === email);
      if (email === "") {
        errors.push(errorItem("required", "email"));
      } else if (!address) {
        errors.push(errorItem("unknown_email", "email"));
      }
      if (body.primary !== true) {
        errors.push(errorItem("required", "primary"));
      }
      throwIfAny(errors);
      if (address && !address.verified) {
        throw new IdentityInputError([errorItem("unverified_primary_email", "email")]);
      }
      await accounts.setPrimaryEmail(account.id, email);
      await reportSecurityEvent(request, account, "email_made_primary", { detail: email });
      return dataResult(await accounts.listEmailAddresses(account.id));
    },

    removeEmailAddress: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await requireRecentAuthentication(request);
      await consumeOr429("manage_email", { ip: request.ip, user: account.id });
      const body = await readBody(request.c);
      const email = normalizeEmail(stringField(body, "email"));
      const address = account.emailAddresses.find((candidate) => candidate.email === email);
      if (!address) {
        throw new IdentityInputError([errorItem(email === "" ? "required" : "unknown_email", "email")]);
      }
      if (address.primary) {
        throw new IdentityInputError([errorItem("cannot_remove_primary_email", "email")]);
      }
      await accounts.removeEmailAddress(account.id, email);
      await reportSecurityEvent(request, account, "email_removed", { detail: email });
      const session = request.session as SessionState;
      const pendingCode = await codes.findSessionCode(session.id, "email_verification", request.now);
      if (pendingCode?.email === email) {
        await codes.deleteSessionCodes(session.id, "email_verification");
      }
      return dataResult(await accounts.listEmailAddresses(account.id));
    },

    listSessions: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      return dataResult(await listSessionsOf(account.id, (request.session as SessionState).id, request.now));
    },

    endSessions: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      const session = request.session as SessionState;
      const body = await readBody(request.c);
      const numbers = body.sessions;
      if (!Array.isArray(numbers) || numbers.length === 0) {
        throw new IdentityInputError([errorItem("required", "sessions")]);
      }
      const own = await sessions.listUserSessions(account.id, session.id, request.now);
      if (!numbers.every((number) => typeof number === "number" && own.some((item) => item.number === number))) {
        throw new IdentityInputError([errorItem("invalid_choice", "sessions")]);
      }
      await sessions.deleteUserSessions(account.id, { numbers: numbers as number[] });
      await reportSecurityEvent(request, account, "sessions_ended", { detail: String(numbers.length) });
      if ((numbers as number[]).includes(session.number)) {
        request.session = null;
        request.account = null;
        request.sessionEnded = true;
        request.issuedToken = null;
        return unauthenticatedResult(settings, {});
      }
      return dataResult(await listSessionsOf(account.id, session.id, request.now));
    },
  };

  async function listSessionsOf(userId: string, currentSessionId: string, now: Date) {
    const items = await sessions.listUserSessions(userId, currentSessionId, now);
    return items.map((item) => ({
      user_agent: item.userAgent,
      ip: item.ip,
      created_at: new Date(item.createdAt).getTime() / 1_000,
      is_current: item.isCurrent,
      id: item.number,
      ...(settings.trackUserSessionActivity ? { last_seen_at: new Date(item.lastSeenAt).getTime() / 1_000 } : {}),
    }));
  }

  /** The signed-in user of a request (session cookie on browser paths, `X-Session-Token` otherwise), cached per request. */
  async function getAuthenticatedUser(c: Context): Promise<AuthenticatedUser | null> {
    const cached = authenticatedUserCache.get(c.req.raw);
    if (cached !== undefined) {
      return cached;
    }
    const now = clock();
    const headerToken = c.req.header(sessionTokenHeaderName);
    const client: IdentityClient = headerToken ? "app" : "browser";
    const token = headerToken ?? getCookie(c, sessionCookieName);
    let user: AuthenticatedUser | null = null;
    if (token) {
      const session = await sessions.findByToken(token, client, now);
      const account = session?.userId ? await accounts.findById(session.userId) : null;
      if (session && account && account.isActive) {
        user = toAuthenticatedUser(account, client, session.id);
      }
    }
    authenticatedUserCache.set(c.req.raw, user);
    return user;
  }
  const authenticatedUserCache = new WeakMap<Request, AuthenticatedUser | null>();

  const mfaHandlers = createMfaHandlers({
    configuration,
    hasRecentAuthentication,
    settings,
    accounts,
    authenticators,
    limits,
    sessions,
    readBody,
    stringField,
    emailField,
    requireAccount,
    ensureSession,
    setPending,
    currentPending,
    signIn,
    continueLogin,
    signUp,
    consumeOr429,
    authenticationResult,
    reportSecurityEvent,
  });

  const providerHandlers = createProviderHandlers({
    configuration,
    settings,
    accounts,
    socialAccounts,
    providers: socialProviders,
    readBody,
    stringField,
    emailField,
    requireAccount,
    setPending,
    currentPending,
    continueLogin,
    isRecentlyAuthenticated,
    sendEmailVerification,
    reportSecurityEvent,
  });

  return { settings, handlers: { ...handlers, ...mfaHandlers, ...providerHandlers }, endpoint, getAuthenticatedUser };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
export type IdentityHandlers = IdentityService["handlers"];
export type { IdentityCodePurpose };
