import type { Context } from "hono";
import { createIdentityDependencies, type AuthenticatedUser, type IdentityServiceOptions } from "./identity-dependencies.ts";
import { createIdentityEndpoint, getAuthenticatedUser, guessAuthenticatedUserId, openRequest, sessionTokenHeaderName, toResult, type IdentityHandler, type IdentityRequest } from "./identity-request.ts";
import { ReauthenticationRequiredError } from "./identity-errors.ts";
import { hasRecentAuthentication } from "./request-guards.ts";
import type { IdentityResult } from "./responses.ts";
import type { IdentityClient } from "./sessions.ts";
import { accountHandlers } from "./handlers/account-handlers.ts";
import { codeHandlers } from "./handlers/code-handlers.ts";
import { emailHandlers } from "./handlers/email-handlers.ts";
import { passwordHandlers } from "./handlers/password-handlers.ts";
import { sessionHandlers } from "./handlers/session-handlers.ts";
import { mfaHandlers } from "./mfa/mfa-handlers.ts";
import { webauthnHandlers } from "./mfa/webauthn-handlers.ts";
import { providerHandlers } from "./providers/provider-handlers.ts";

export type { AuthenticatedUser, IdentityDependencies, IdentityServiceOptions, UserLoggedInEvent } from "./identity-dependencies.ts";
export { sessionCookieName, sessionTokenHeaderName, signedInHintCookieName, type IdentityHandler, type IdentityRequest } from "./identity-request.ts";
export type { IdentityCodePurpose } from "../database/schema.ts";

/** Every endpoint of allauth's headless API that this server implements, by name (identity-routes.ts mounts them). */
export const identityHandlers = {
  ...accountHandlers,
  ...codeHandlers,
  ...emailHandlers,
  ...passwordHandlers,
  ...sessionHandlers,
  ...mfaHandlers,
  ...webauthnHandlers,
  ...providerHandlers,
} satisfies Record<string, IdentityHandler>;

type BoundHandlers = { [Name in keyof typeof identityHandlers]: (request: IdentityRequest) => Promise<IdentityResult> };

/**
 * The identity service: allauth's headless API (browser and app clients) over our sessions, codes and accounts. The
 * work is done by plain functions that take the dependencies first (handlers/, mfa/, providers/, login-stages.ts);
 * this binds them to one set of dependencies for the routes and the other server modules.
 *
 * @example
 * const identity = createIdentityService({ configuration, database, mailer, clock });
 * app.route("/_allauth/browser/v1", createIdentityRoutes(identity, "browser"));
 */
export function createIdentityService(options: IdentityServiceOptions) {
  const dependencies = createIdentityDependencies(options);
  const handlers = Object.fromEntries(
    Object.entries(identityHandlers).map(([name, handler]) => [name, (request: IdentityRequest) => (handler as IdentityHandler)(dependencies, request)]),
  ) as BoundHandlers;
  return {
    settings: dependencies.settings,
    dependencies,
    handlers,
    /** Wraps a handler as a Hono route for one client kind (cookie session or `X-Session-Token`). */
    endpoint: (client: IdentityClient, handler: (request: IdentityRequest) => Promise<IdentityResult>) =>
      createIdentityEndpoint(dependencies, client, (_dependencies, request) => handler(request)),
    /**
     * For a sensitive action outside allauth's API (deleting the account): allauth's reauthentication 401 (flows
     * `reauthenticate`, `mfa_reauthenticate`…) when the session's last authentication is older than
     * `ACCOUNT_REAUTHENTICATION_TIMEOUT`, else `null`. Always required, as allauth does for second factors.
     */
    reauthenticationRequiredAnswer: async (c: Context): Promise<IdentityResult | null> => {
      const request = await openRequest(dependencies, c, c.req.header(sessionTokenHeaderName) ? "app" : "browser");
      if (request === "gone" || !request.account || !request.session) return null;
      if (await hasRecentAuthentication(dependencies, request, request.account)) return null;
      return toResult(dependencies, request, new ReauthenticationRequiredError());
    },
    /** The signed-in user of a request, or `null`; found once per request. */
    getAuthenticatedUser: (c: Context): Promise<AuthenticatedUser | null> => getAuthenticatedUser(dependencies, c),
    /** The user this request's session belonged to when last read here, or `null`; a guess, never an authorization. */
    guessAuthenticatedUserId: (c: Context): string | null => guessAuthenticatedUserId(dependencies, c),
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
export type IdentityHandlers = IdentityService["handlers"];
