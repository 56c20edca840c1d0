import type { AtelierDatabase } from "../database/open-database.ts";
import { clientAddressFrom } from "../http/client-address.ts";
import type { FrontAnswer, FrontRequest, FrontRoute } from "../http/node-front.ts";
import { csrfCookieName } from "./csrf.ts";
import { serializeUser, type UserAccount } from "./email-addresses.ts";
import { config } from "./handlers/account-handlers.ts";
import { isActivityWriteDue, sessionCookieName, signedInHintCookieName } from "./identity-request.ts";
import type { IdentityService } from "./identity-service.ts";
import { authenticatedResult, identityCacheHeaders, unauthenticatedResult, type IdentityResult } from "./responses.ts";
import { createSessionReadCache } from "./session-read-cache.ts";
import type { SessionState } from "./sessions.ts";

/** Every this many identity requests, the identity endpoint prunes the rate limits' old rows (identity-request.ts). */
const requestsBetweenPrunes = 500;

const answerHeaders = Object.entries({ "Content-Type": "application/json", ...identityCacheHeaders }).flat();

function answerOf(result: IdentityResult): FrontAnswer {
  return { status: result.status, headers: answerHeaders, body: JSON.stringify(result.body) };
}

/** A session that needs nothing written: no cookie to set or delete, no activity to record, no pending flow to expire. */
type QuietSession = { session: SessionState | null; account: UserAccount | null };

/**
 * allauth's two calls made on every page of the app, answered in the node front (decision 0040):
 * GET /_allauth/browser/v1/config and GET /_allauth/browser/v1/auth/session. A request is answered here only when the
 * identity endpoint would answer it without writing anything but the rate limits' periodic prune (a cookie, the
 * session's activity, an expired flow); every other one goes on to the endpoint itself.
 *
 * @example
 * const routes = createIdentityFrontRoutes(identity, { trustProxy: configuration.trustProxy, database });
 */
export function createIdentityFrontRoutes(identity: IdentityService, options: { trustProxy: boolean; database: AtelierDatabase }): Map<string, FrontRoute> {
  const deps = identity.dependencies;
  const { settings, sessions, clock, pruneCounter, limits } = deps;
  // The session kept from the call before while nothing in the identity tables changed (decision 0052).
  const sessionReads = createSessionReadCache({ database: options.database, sessions });
  // The configuration and a signed-out status are the same for every request.
  const configAnswer = config(deps).then(answerOf);
  const signedOutAnswer = answerOf(unauthenticatedResult(settings, {}));

  const readQuietSession = async (request: FrontRequest): Promise<QuietSession | null> => {
    // Without a CSRF cookie the answer would set one.
    if (request.cookie(csrfCookieName) === undefined) return null;
    const hinted = request.cookie(signedInHintCookieName) !== undefined;
    const token = request.cookie(sessionCookieName);
    if (!token) return hinted ? null : { session: null, account: null };
    const now = clock();
    const found = await sessionReads.findByToken(token, "browser", now);
    if (!found || Object.keys(found.session.pending).length > 0) return null;
    const { session, account } = found;
    if (!session.userId) return hinted ? null : { session, account: null };
    if (!account || !account.isActive || !hinted) return null;
    const ip = clientAddressFrom(request.header("x-forwarded-for"), request.socketAddress, options) ?? "unknown";
    const userAgent = (request.header("user-agent") ?? "").slice(0, 500);
    if (isActivityWriteDue(settings, session, { ip, userAgent, now })) return null;
    return { session, account };
  };

  // A kept session (above) is the same object from one call to the next, and so is its answer.
  const signedInAnswers = new WeakMap<SessionState, FrontAnswer>();
  const signedInAnswerOf = (session: SessionState, account: UserAccount): FrontAnswer => {
    let answer = signedInAnswers.get(session);
    if (answer === undefined) {
      answer = answerOf(authenticatedResult(serializeUser(account), session.methods));
      signedInAnswers.set(session, answer);
    }
    return answer;
  };

  const answerWhenQuiet = (answer: (quiet: QuietSession) => FrontAnswer | Promise<FrontAnswer>): FrontRoute => {
    return async (request) => {
      const quiet = await readQuietSession(request);
      if (quiet === null) return null;
      // Counted and pruned as the identity endpoint does (identity-request.ts).
      pruneCounter.requestsSincePrune += 1;
      if (pruneCounter.requestsSincePrune >= requestsBetweenPrunes) {
        pruneCounter.requestsSincePrune = 0;
        await limits.prune();
      }
      return answer(quiet);
    };
  };

  return new Map<string, FrontRoute>([
    ["/_allauth/browser/v1/config", answerWhenQuiet(() => configAnswer)],
    ["/_allauth/browser/v1/auth/session", answerWhenQuiet(({ session, account }) => (account && session ? signedInAnswerOf(session, account) : signedOutAnswer))],
  ]);
}
