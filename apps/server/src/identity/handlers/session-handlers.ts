import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, errorItem } from "../identity-errors.ts";
import type { IdentityHandler, IdentityRequest } from "../identity-request.ts";
import { identityBody, numberListField, readValidBody } from "../identity-validation.ts";
import { reportSecurityEvent } from "../login-stages.ts";
import { requireAccount } from "../request-guards.ts";
import { dataResult, type IdentityResult, unauthenticatedResult } from "../responses.ts";
import type { SessionState } from "../sessions.ts";

export const endSessionsBody = identityBody({ sessions: numberListField });

export async function listSessionsOf(deps: IdentityDependencies, userId: string, currentSessionId: string, now: Date) {
  const { settings, sessions } = deps;
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

export async function listSessions(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const account = requireAccount(request);
  return dataResult(await listSessionsOf(deps, account.id, (request.session as SessionState).id, request.now));
}

export async function endSessions(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, sessions } = deps;
  const account = requireAccount(request);
  const session = request.session as SessionState;
  const { sessions: numbers } = await readValidBody(request, endSessionsBody);
  const own = await sessions.listUserSessions(account.id, session.id, request.now);
  if (!numbers.every((number) => own.some((item) => item.number === number))) {
    throw new IdentityInputError([errorItem("invalid_choice", "sessions")]);
  }
  await sessions.deleteUserSessions(account.id, { numbers });
  await reportSecurityEvent(deps, request, account, "sessions_ended", { detail: String(numbers.length) });
  if (numbers.includes(session.number)) {
    request.session = null;
    request.account = null;
    request.sessionEnded = true;
    request.issuedToken = null;
    return unauthenticatedResult(settings, {});
  }
  return dataResult(await listSessionsOf(deps, account.id, session.id, request.now));
}

/** allauth's user sessions endpoints (`auth/sessions`). */
export const sessionHandlers = { listSessions, endSessions } satisfies Record<string, IdentityHandler>;
