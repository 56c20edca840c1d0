import * as v from "valibot";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { runInSharedSqliteTransaction } from "../database/sqlite-group-commit.ts";
import { errorBodyOf, toHttpError, type ErrorHandlerOptions } from "../http/error-responses.ts";
import type { FrontAnswer, FrontPostRoute } from "../http/node-front.ts";
import { csrfCookieName, csrfFailureOf, csrfHeaderName } from "../identity/csrf.ts";
import { sessionCookieName, sessionTokenHeaderName } from "../identity/identity-request.ts";
import type { IdentityService } from "../identity/identity-service.ts";
import { hashToken } from "../identity/secrets.ts";
import { isPossibleSessionToken } from "../identity/sessions.ts";
import { anonymousLearner, learnerCookieName, signedInLearner, wellFormedLearnerCookie, type Learner } from "./learner.ts";
import { ratingAnswerOf, ratingRequestOf, tooManyStudyCalls, type StudyCallLimiter } from "./rating-answer.ts";
import { countAndRateCardOfLearner, rateCardWithin, type RatingOutcome, type RatingRequest } from "./rating-store.ts";
import { ratingBodySchema } from "./study-validation.ts";

/** A rating's request target: a plain id (no percent-encoding, which Hono would decode) and no query. */
const ratingTarget = /^\/api\/subtitle-pairs\/([A-Za-z0-9_-]{1,100})\/rate\/$/;
/** What the study routes' validator reads as JSON, in its plainest spelling; any other goes to the app. */
const plainJsonMediaType = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;
const utf8ByteOrderMark = 0xef;

const answerHeaders = ["Content-Type", "application/json", "Cache-Control", "no-store"];

type RatingFrontOptions = {
  identity: IdentityService;
  database: AtelierDatabase;
  clock: Clock;
  studyCallLimiter: StudyCallLimiter;
  publicOrigin: string;
  errorHandlerOptions: ErrorHandlerOptions;
};

/**
 * POST /api/subtitle-pairs/:id/rate/, answered in the node front (decision 0048): most requests of a study session.
 * It answers only a request the study routes would take as it is: CSRF passed, a learner known without a new cookie
 * (a browser session of an active account, or a `learner_id` cookie), a JSON body `{ "is_correct": boolean }`.
 * Everything else goes to the app before anything is written, and the app answers it as ever. Past that point the
 * route counts the call in the study calls' limit (shared with the routes) and rates as the routes do
 * (`ratingRequestOf`, `ratingAnswerOf`), answering refusals and failures itself in the study API's shape.
 *
 * @example
 * const postRoutes = [createRatingFrontRoute({ identity, database, clock, studyCallLimiter, publicOrigin, errorHandlerOptions })];
 */
export function createRatingFrontRoute(options: RatingFrontOptions): { target: RegExp; route: FrontPostRoute } {
  const { sessions, sessionUserGuesses } = options.identity.dependencies;
  const { database, clock, studyCallLimiter } = options;

  const route: FrontPostRoute = async (request) => {
    const pairId = request.pathMatch[1];
    if (pairId === undefined || request.header(sessionTokenHeaderName.toLowerCase()) !== undefined) return null;
    if (!plainJsonMediaType.test(request.header("content-type") ?? "")) return null;
    const csrfFailure = await csrfFailureOf(
      { origin: request.header("origin"), referer: request.header("referer"), cookieToken: request.cookie(csrfCookieName), submittedToken: () => request.header(csrfHeaderName.toLowerCase()) ?? null },
      options.publicOrigin,
    );
    if (csrfFailure !== null) return null;
    const isCorrect = isCorrectOf(request.body);
    if (isCorrect === null) return null;
    // The study routes' learner (`resolveLearner`): the session's active user, else the anonymous learner of a
    // well-formed `learner_id` cookie. A visitor with neither gets a new cookie from the app.
    const token = request.cookie(sessionCookieName);
    const learnerCookie = wellFormedLearnerCookie(request.cookie(learnerCookieName));
    let learner: Learner | null = learnerCookie === null ? null : anonymousLearner(learnerCookie);
    if (token !== undefined && isPossibleSessionToken(token)) {
      const tokenHash = hashToken(token);
      const userId = await sessions.findSignedInUserId(tokenHash, "browser", clock());
      sessionUserGuesses.rememberByTokenHash(tokenHash, userId);
      if (userId !== null) learner = signedInLearner(userId);
    }
    if (learner === null) return null;

    try {
      const rating = ratingRequestOf(learner, pairId, isCorrect, clock());
      const outcome = await (countAndRateInOneCommit(database, studyCallLimiter, rating) ?? countAndRateInOneStatement(database, studyCallLimiter, rating));
      return { status: 200, headers: answerHeaders, body: JSON.stringify(ratingAnswerOf(learner, outcome)) };
    } catch (error) {
      return errorAnswer(toHttpError({ method: "POST", path: request.path }, error, options.errorHandlerOptions));
    }
  };
  return { target: ratingTarget, route };
}

/**
 * On SQLite, the call's count and the rating in one step of the turn's shared commit (the study routes wait for two):
 * a rating over the limit is refused without a write, and one that fails keeps its count, as the routes' would.
 * `undefined` on PostgreSQL.
 */
function countAndRateInOneCommit(database: AtelierDatabase, limiter: StudyCallLimiter, rating: RatingRequest): Promise<RatingOutcome> | undefined {
  const shared = runInSharedSqliteTransaction(database, (transaction) => {
    const decision = limiter.registerRequestWithin(transaction, rating.learnerKey);
    if (decision.status === "limited") return { refused: tooManyStudyCalls(decision) };
    try {
      return { outcome: rateCardWithin(transaction, rating) };
    } catch (error) {
      return { refused: error };
    }
  });
  return shared?.then((result) => {
    if ("refused" in result) throw result.refused;
    return result.outcome;
  });
}

/**
 * On PostgreSQL, the call's count and the rating in the rating's statement (decision 0053). A rating that fails took
 * its count with it in the rollback: it is counted again alone, as the routes would have counted it before rating.
 */
async function countAndRateInOneStatement(database: AtelierDatabase, limiter: StudyCallLimiter, rating: RatingRequest): Promise<RatingOutcome> {
  const call = limiter.countedInOwnStatement();
  let counted: { requestCount: number; outcome: RatingOutcome | null };
  try {
    counted = await (countAndRateCardOfLearner(database, rating, call) as NonNullable<ReturnType<typeof countAndRateCardOfLearner>>);
  } catch (error) {
    const decision = await limiter.registerRequest(rating.learnerKey).catch(() => null);
    if (decision?.status === "limited") throw tooManyStudyCalls(decision);
    throw error;
  }
  const decision = await call.decide(counted.requestCount);
  if (decision.status === "limited") throw tooManyStudyCalls(decision);
  if (counted.outcome === null) throw new Error("A rating within the study calls' limit was not rated.");
  return counted.outcome;
}

/** `is_correct` of a body the study routes' validator accepts as it is, or `null` for any other body. */
function isCorrectOf(body: Buffer): boolean | null {
  if (body[0] === utf8ByteOrderMark) return null;
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    return null;
  }
  const parsed = v.safeParse(ratingBodySchema, value);
  return parsed.success ? parsed.output.is_correct : null;
}

function errorAnswer(error: ReturnType<typeof toHttpError>): FrontAnswer {
  return { status: error.status, headers: [...answerHeaders, ...Object.entries(error.headers).flat()], body: JSON.stringify(errorBodyOf("study", error)) };
}
