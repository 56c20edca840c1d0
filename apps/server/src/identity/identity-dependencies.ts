import type { Context } from "hono";
import type { SecurityEventReport } from "../account/security-events.ts";
import type { Clock } from "../clock.ts";
import type { Configuration, IdentityConfiguration } from "../config.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { Mailer } from "../mail/mailer.ts";
import { createRateLimiter } from "../rate-limit/rate-limiter.ts";
import { createCodeStore } from "./codes.ts";
import { createAccountStore } from "./email-addresses.ts";
import { createIdentityLinks } from "./identity-mail.ts";
import { createIdentityRateLimits } from "./rate-limits.ts";
import { createSessionStore, type IdentityClient } from "./sessions.ts";
import { createSessionUserGuesses } from "./session-user-guesses.ts";
import { createAuthenticatorStore } from "./mfa/authenticator-store.ts";
import { createSecretBox } from "./mfa/mfa-secrets.ts";
import { createWebAuthnCeremonies } from "./mfa/webauthn.ts";
import { createSocialAccountStore } from "./providers/social-account-store.ts";
import { createSocialProviders } from "./providers/social-providers.ts";

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

/**
 * Everything the identity functions read besides the request: settings, stores, limits, mail, the one clock and the
 * hooks. Built once per server by `createIdentityDependencies`; every handler and login stage takes it first.
 */
export type IdentityDependencies = ReturnType<typeof createIdentityDependencies>;

/**
 * @example
 * const dependencies = createIdentityDependencies({ configuration, database, mailer, clock });
 * await login(dependencies, request);
 */
export function createIdentityDependencies(options: IdentityServiceOptions) {
  const { configuration, database, mailer, clock } = options;
  const settings: IdentityConfiguration = configuration.identity;
  return {
    configuration,
    settings,
    mailer,
    clock,
    secureCookies: configuration.publicOrigin.startsWith("https:"),
    accounts: createAccountStore({ database }),
    sessions: createSessionStore({ database }),
    codes: createCodeStore({ database, secretKey: configuration.secretKey }),
    limits: createIdentityRateLimits({ database, clock }),
    accountExistsMailLimiter: createRateLimiter({ database, scope: "identity-mail:account-already-exists", limit: { maximumRequests: 1, windowMilliseconds: 5 * 60_000 }, clock }),
    links: createIdentityLinks(configuration.publicOrigin),
    authenticators: createAuthenticatorStore({ database }),
    secretBox: createSecretBox(configuration.secretKey),
    webauthnCeremonies: createWebAuthnCeremonies(settings.mfa),
    socialAccounts: createSocialAccountStore({ database }),
    socialProviders: createSocialProviders(settings.socialProviders, {
      allowInsecureRequests: configuration.environment !== "production",
      clock,
      ...(options.providerFetch ? { fetch: options.providerFetch } : {}),
    }),
    onUserLoggedIn: options.onUserLoggedIn,
    onSecurityEvent: options.onSecurityEvent,
    /** The signed-in user of each request, found once (`getAuthenticatedUser`). */
    authenticatedUserCache: new WeakMap<Request, AuthenticatedUser | null>(),
    /** The user of each session token read lately, for reads started before the session is read (decision 0045). */
    sessionUserGuesses: createSessionUserGuesses(),
    /** Requests since the identity rate-limit table was last pruned. */
    pruneCounter: { requestsSincePrune: 0 },
  };
}
