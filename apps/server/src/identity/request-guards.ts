import type { UserAccount } from "./email-addresses.ts";
import { epochSecondsOf, type PendingState } from "./flows.ts";
import type { IdentityDependencies } from "./identity-dependencies.ts";
import { AuthenticationRequiredError, IdentityStatusError, ReauthenticationRequiredError } from "./identity-errors.ts";
import type { IdentityRequest } from "./identity-request.ts";
import type { IdentityRateLimitAction, IdentityRateLimitDecision } from "./rate-limits.ts";
import type { SessionState } from "./sessions.ts";

export function requireAccount(request: IdentityRequest): UserAccount {
  if (!request.account) {
    throw new AuthenticationRequiredError();
  }
  return request.account;
}

export async function ensureSession(deps: IdentityDependencies, request: IdentityRequest): Promise<SessionState> {
  const { sessions } = deps;
  if (request.session) {
    return request.session;
  }
  const { session, token } = await sessions.create({ client: request.client, userId: null, methods: [], pending: {}, ip: request.ip, userAgent: request.userAgent, now: request.now });
  request.session = session;
  request.issuedToken = token;
  request.sessionEnded = false;
  return session;
}

export async function setPending(deps: IdentityDependencies, request: IdentityRequest, pending: PendingState): Promise<void> {
  const { sessions } = deps;
  const session = await ensureSession(deps, request);
  session.pending = pending;
  await sessions.savePending(session.id, pending);
}

export function currentPending(request: IdentityRequest): PendingState {
  return request.session?.pending ?? {};
}

export async function consumeOr429(deps: IdentityDependencies, action: IdentityRateLimitAction, subject: { ip: string; user?: string; key?: string }): Promise<IdentityRateLimitDecision> {
  const { limits } = deps;
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
export async function hasRecentAuthentication(deps: IdentityDependencies, request: IdentityRequest, account: UserAccount): Promise<boolean> {
  const { settings, authenticators } = deps;
  const latest = Math.max(0, ...(request.session?.methods ?? []).map((record) => record.at));
  if (epochSecondsOf(request.now) - latest <= settings.reauthenticationTimeoutSeconds) return true;
  if (account.passwordHash !== null) return false;
  return (await authenticators.listByUser(account.id)).every((authenticator) => !settings.mfa.supportedTypes.includes(authenticator.type));
}

/**
 * allauth's `ACCOUNT_REAUTHENTICATION_REQUIRED`: with it on, changing the e-mail addresses or the connected
 * third-party accounts needs a recent authentication.
 */
export async function isRecentlyAuthenticated(deps: IdentityDependencies, request: IdentityRequest, account: UserAccount): Promise<boolean> {
  const { settings } = deps;
  return !settings.reauthenticationRequired || hasRecentAuthentication(deps, request, account);
}

export async function requireRecentAuthentication(deps: IdentityDependencies, request: IdentityRequest): Promise<void> {
  if (request.account && !(await isRecentlyAuthenticated(deps, request, request.account))) {
    throw new ReauthenticationRequiredError();
  }
}
