import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../http/http-errors.ts";
import type { AuthenticatedUser, IdentityService } from "./identity-service.ts";

export { createIdentityService, sessionCookieName, sessionTokenHeaderName, signedInHintCookieName } from "./identity-service.ts";
export type { AuthenticatedUser, IdentityService, IdentityServiceOptions, UserLoggedInEvent } from "./identity-service.ts";
export { createIdentityRoutes, createProviderCallbackRoutes } from "./identity-routes.ts";
export { addLocalOpenIdProvider, localOpenIdRedirectUriOf, startLocalOpenIdProvider, type LocalOpenIdProvider } from "./providers/local-openid-provider.ts";
export { createCsrfMiddleware, csrfCookieName, csrfHeaderName, csrfFormFieldName } from "./csrf.ts";

export type IdentityVariables = { identity: IdentityService };

/**
 * Makes the identity service reachable from every handler (`getAuthenticatedUser(c)`); `createServer` adds it.
 *
 * @example
 * app.use(createIdentityContextMiddleware(identity));
 */
export function createIdentityContextMiddleware(identity: IdentityService): MiddlewareHandler<{ Variables: IdentityVariables }> {
  return async (c, next) => {
    c.set("identity", identity);
    await next();
  };
}

function identityOf(c: Context): IdentityService {
  const identity = (c as Context<{ Variables: IdentityVariables }>).get("identity");
  if (!identity) {
    throw new Error("getAuthenticatedUser needs the identity middleware: this is a bug in createServer's wiring.");
  }
  return identity;
}

/**
 * The signed-in user of the request, from the `sessionid` cookie or the `X-Session-Token` header; `null` when anonymous.
 *
 * @example
 * const user = await getAuthenticatedUser(c);
 * if (user) { ... user.id ... }
 */
export function getAuthenticatedUser(c: Context): Promise<AuthenticatedUser | null> {
  return identityOf(c).getAuthenticatedUser(c);
}

/**
 * The user this request's session belonged to when this process last read it, or `null`: a guess that lets a read start
 * before the session is read (decision 0045). Never an authorization: compare it with `getAuthenticatedUser`'s answer
 * and drop what was read when they differ.
 *
 * @example
 * const guessedUserId = guessAuthenticatedUserId(c);
 */
export function guessAuthenticatedUserId(c: Context): string | null {
  return identityOf(c).guessAuthenticatedUserId(c);
}

/**
 * For a sensitive action outside allauth's API: allauth's reauthentication 401 when the session's last authentication
 * is older than the reauthentication timeout, else `null`.
 *
 * @example
 * const answer = await reauthenticationRequiredAnswer(c);
 * if (answer) return c.json(answer.body, 401);
 */
export function reauthenticationRequiredAnswer(c: Context) {
  return identityOf(c).reauthenticationRequiredAnswer(c);
}

/**
 * Like `getAuthenticatedUser`, but answers 401 `{ message }` for anonymous requests.
 *
 * @example
 * app.get("/user/subscription-status", async (c) => { const user = await requireAuthenticatedUser(c); ... });
 */
export async function requireAuthenticatedUser(c: Context): Promise<AuthenticatedUser> {
  const user = await getAuthenticatedUser(c);
  if (!user) {
    throw new HttpError(401, "Please sign in first.");
  }
  return user;
}
