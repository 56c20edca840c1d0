import { getClientAddress } from "../http/client-address.ts";
import type { Context, Handler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createCsrfToken, setCsrfCookie } from "./csrf.ts";
import { serializeUser, type UserAccount } from "./email-addresses.ts";
import { identityTimeouts, withoutExpiredPendingLogin } from "./flows.ts";
import type { AuthenticatedUser, IdentityDependencies } from "./identity-dependencies.ts";
import { AuthenticationRequiredError, IdentityInputError, IdentityStatusError, ReauthenticationRequiredError } from "./identity-errors.ts";
import { typesOf } from "./mfa/authenticator-store.ts";
import { errorsResult, identityCacheHeaders, reauthenticationRequiredResult, sessionGoneResult, statusResult, type IdentityResult, unauthenticatedResult } from "./responses.ts";
import type { IdentityClient, SessionState } from "./sessions.ts";

export const sessionCookieName = "sessionid";
/**
 * A cookie the page can read (the session cookie is HttpOnly): present while this browser is signed in, so public
 * pages skip asking for the session status of visitors who never signed in. It is only a hint; the status call decides.
 */
export const signedInHintCookieName = "atelier_signed_in";
export const sessionTokenHeaderName = "X-Session-Token";

/** What one request knows about its session; handlers change it through the identity functions only. */
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

const activityWriteIntervalMilliseconds = 60_000;

/** A handler of allauth's API: what one endpoint does with the request, given the service's dependencies. */
export type IdentityHandler = (deps: IdentityDependencies, request: IdentityRequest) => Promise<IdentityResult>;

/** Wraps a handler as a Hono route: opens the session, maps typed errors to allauth answers, writes cookies or the token. */
export function createIdentityEndpoint(deps: IdentityDependencies, client: IdentityClient, handler: IdentityHandler): Handler {
  const { settings, limits, pruneCounter } = deps;
  return async (c) => {
    const request = await openRequest(deps, c, client);
    if (request === "gone") {
      for (const [name, value] of Object.entries(identityCacheHeaders)) {
        c.header(name, value);
      }
      return c.json(sessionGoneResult(settings).body, 410);
    }
    let result: IdentityResult;
    try {
      result = await handler(deps, request);
    } catch (error) {
      result = await toResult(deps, request, error);
    }
    pruneCounter.requestsSincePrune += 1;
    if (pruneCounter.requestsSincePrune >= 500) {
      pruneCounter.requestsSincePrune = 0;
      await limits.prune();
    }
    return finish(deps, request, result);
  };
}

export async function openRequest(deps: IdentityDependencies, c: Context, client: IdentityClient): Promise<IdentityRequest | "gone"> {
  const { configuration, sessions, clock } = deps;
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
  const found = await sessions.findByToken(token, client, now);
  if (!found) {
    if (client === "app") {
      return "gone";
    }
    request.sessionEnded = true;
    return request;
  }
  const { session, account } = found;
  // Most sessions have no pending flow: nothing can have expired.
  if (Object.keys(session.pending).length > 0) {
    const pending = withoutExpiredPendingLogin(session.pending, now.getTime());
    if (JSON.stringify(pending) !== JSON.stringify(session.pending)) {
      session.pending = pending;
      await sessions.savePending(session.id, pending);
    }
  }
  request.session = session;
  if (session.userId) {
    if (!account || !account.isActive) {
      await sessions.delete(session.id);
      request.session = null;
      request.sessionEnded = true;
      return request;
    }
    request.account = account;
    await trackActivity(deps, request, session);
  }
  return request;
}

export function sentToken(c: Context, client: IdentityClient): string | undefined {
  return client === "browser" ? getCookie(c, sessionCookieName) : c.req.header(sessionTokenHeaderName);
}

export async function trackActivity(deps: IdentityDependencies, request: IdentityRequest, session: SessionState): Promise<void> {
  const { settings, sessions } = deps;
  if (isActivityWriteDue(settings, session, request)) {
    await sessions.recordActivity(session.id, { ip: request.ip, userAgent: request.userAgent, now: request.now });
    session.ip = request.ip;
    session.userAgent = request.userAgent;
    session.lastSeenAt = request.now.toISOString();
  }
}

/** Whether this request must record the session's activity (a new address or browser, or a minute since the last). */
export function isActivityWriteDue(settings: IdentityDependencies["settings"], session: SessionState, request: { ip: string; userAgent: string; now: Date }): boolean {
  if (!settings.trackUserSessionActivity) return false;
  const changed = session.ip !== request.ip || session.userAgent !== request.userAgent;
  return changed || request.now.getTime() - new Date(session.lastSeenAt).getTime() >= activityWriteIntervalMilliseconds;
}

export function finish(deps: IdentityDependencies, request: IdentityRequest, result: IdentityResult): Response {
  const { secureCookies } = deps;
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

export async function toResult(deps: IdentityDependencies, request: IdentityRequest, error: unknown): Promise<IdentityResult> {
  const { settings, authenticators } = deps;
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

/** allauth lists `provider_redirect` for browser clients only (API.md §2): an app cannot follow a form post's redirect. */
export function withoutBrowserOnlyFlows(body: IdentityResult["body"]): IdentityResult["body"] {
  const data = (body as { data?: { flows?: unknown } } | undefined)?.data;
  if (!data || !Array.isArray(data.flows)) return body;
  return { ...(body as object), data: { ...data, flows: data.flows.filter((flow: { id?: unknown }) => flow.id !== "provider_redirect") } } as IdentityResult["body"];
}

export function toAuthenticatedUser(account: UserAccount, client: IdentityClient, sessionId: string): AuthenticatedUser {
  const user = serializeUser(account);
  return { id: account.id, email: user.email ?? null, display: user.display, hasUsablePassword: user.has_usable_password, client, sessionId };
}

/** The request's session token and the client kind it says: `X-Session-Token` (an app) before the session cookie (a browser). */
function sessionTokenOfRequest(c: Context): { token: string | undefined; client: IdentityClient } {
  const headerToken = c.req.header(sessionTokenHeaderName);
  return headerToken ? { token: headerToken, client: "app" } : { token: getCookie(c, sessionCookieName), client: "browser" };
}

/** The signed-in user of a request (session cookie on browser paths, `X-Session-Token` otherwise), cached per request. */
export async function getAuthenticatedUser(deps: IdentityDependencies, c: Context): Promise<AuthenticatedUser | null> {
  const { sessions, clock, authenticatedUserCache, sessionUserGuesses } = deps;
  const cached = authenticatedUserCache.get(c.req.raw);
  if (cached !== undefined) {
    return cached;
  }
  const now = clock();
  const { token, client } = sessionTokenOfRequest(c);
  let user: AuthenticatedUser | null = null;
  if (token) {
    const found = await sessions.findByToken(token, client, now);
    if (found?.session.userId && found.account?.isActive) {
      user = toAuthenticatedUser(found.account, client, found.session.id);
    }
    sessionUserGuesses.remember(token, user?.id ?? null);
  }
  authenticatedUserCache.set(c.req.raw, user);
  return user;
}

/**
 * The user this request's session belonged to when this process last read it, or `null`: a guess to start reading
 * with while `getAuthenticatedUser` reads the session, never an authorization (decision 0045).
 */
export function guessAuthenticatedUserId(deps: IdentityDependencies, c: Context): string | null {
  const cached = deps.authenticatedUserCache.get(c.req.raw);
  if (cached !== undefined) return cached?.id ?? null;
  const { token } = sessionTokenOfRequest(c);
  return token ? deps.sessionUserGuesses.guess(token) : null;
}
