import * as v from "valibot";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { postgresPoolOf } from "../database/postgres-pool.ts";
import { runInSharedSqliteTransaction } from "../database/sqlite-group-commit.ts";
import { errorBodyOf, toHttpError, type ErrorHandlerOptions } from "../http/error-responses.ts";
import type { FrontAnswer, FrontPostRoute } from "../http/node-front.ts";
import { csrfCookieName, csrfFailureOf, csrfHeaderName } from "../identity/csrf.ts";
import { sessionCookieName, sessionTokenHeaderName } from "../identity/identity-request.ts";
import type { IdentityService } from "../identity/identity-service.ts";
import { hashToken } from "../identity/secrets.ts";
import { isPossibleSessionToken } from "../identity/sessions.ts";
import { anonymousLearner, learnerCookieName, readLearnerCookieValue, signedInLearner, type Learner } from "./learner.ts";
import { ratingAnswerOf, ratingRequestOf, tooManyStudyCalls, type StudyCallLimiter } from "./rating-answer.ts";
import { countAndRateCardOfLearner, rateCardWithin, type CountedRating, type RatingOutcome, type RatingRequest } from "./rating-store.ts";
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
  /** The study routes' `learnerCookieSigningKey`. */
  learnerCookieSigningKey: string;
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
 * const postRoutes = [createRatingFrontRoute({ identity, database, clock, studyCallLimiter, publicOrigin, learnerCookieSigningKey: secretKey, errorHandlerOptions })];
 */
export function createRatingFrontRoute(options: RatingFrontOptions): { target: RegExp; route: FrontPostRoute } {
  const { sessions, sessionUserGuesses } = options.identity.dependencies;
  const { database, clock, studyCallLimiter } = options;
  const onPostgres = postgresPoolOf(database) !== undefined;

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
    const learnerCookie = readLearnerCookieValue(request.cookie(learnerCookieName), options.learnerCookieSigningKey);
    // An unsigned cookie is the app's to check against the records kept under it (decision 0085).
    if (learnerCookie?.proof === "unsigned") return null;
    let learner: Learner | null = learnerCookie === null ? null : anonymousLearner(learnerCookie.id);
    const answerOf = (rated: Learner, outcome: RatingOutcome): FrontAnswer => ({ status: 200, headers: answerHeaders, body: JSON.stringify(ratingAnswerOf(rated, outcome)) });
    const failureOf = (error: unknown) => errorAnswer(toHttpError({ method: "POST", path: request.path }, error, options.errorHandlerOptions));
    if (token !== undefined && isPossibleSessionToken(token)) {
      const tokenHash = hashToken(token);
      // On PostgreSQL, rated for the session's last user in the statement that reads the session (decision 0054): it
      // counts and writes only when the session still signs that user in, and otherwise answers whom it signs in.
      const guessedUserId = onPostgres ? sessionUserGuesses.guessByTokenHash(tokenHash) : null;
      let userId: string | null;
      if (guessedUserId === null) {
        userId = await sessions.findSignedInUserId(tokenHash, "browser", clock());
      } else {
        const guessed = signedInLearner(guessedUserId);
        let counted: Awaited<ReturnType<typeof countAndRateInOneStatement>>;
        try {
          counted = await countAndRateInOneStatement(database, studyCallLimiter, ratingRequestOf(guessed, pairId, isCorrect, clock()), tokenHash);
          if (counted.status === "counted") {
            sessionUserGuesses.rememberByTokenHash(tokenHash, guessedUserId);
            return answerOf(guessed, counted.outcome);
          }
        } catch (error) {
          return failureOf(error);
        }
        userId = counted.signedInUserId;
      }
      sessionUserGuesses.rememberByTokenHash(tokenHash, userId);
      if (userId !== null) learner = signedInLearner(userId);
    }
    if (learner === null) return null;

    try {
      const rating = ratingRequestOf(learner, pairId, isCorrect, clock());
      const sqliteOutcome = countAndRateInOneCommit(database, studyCallLimiter, rating);
      if (sqliteOutcome !== undefined) return answerOf(learner, await sqliteOutcome);
      const counted = await countAndRateInOneStatement(database, studyCallLimiter, rating);
      if (counted.status !== "counted") throw new Error("A rating without a session to check answered that its session does not hold.");
      return answerOf(learner, counted.outcome);
    } catch (error) {
      return failureOf(error);
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
 * On PostgreSQL, the call's count and the rating in the rating's statement (decision 0053), with the session of
 * `sessionTokenHash` read there too when given (decision 0054): the outcome, or that the session does not sign the
 * rating's user in (nothing counted or written). A rating that fails took its count with it in the rollback: it is
 * counted again alone, as the routes would have counted it before rating.
 */
async function countAndRateInOneStatement(
  database: AtelierDatabase,
  limiter: StudyCallLimiter,
  rating: RatingRequest,
  sessionTokenHash?: string,
): Promise<{ status: "counted"; outcome: RatingOutcome } | Extract<CountedRating, { status: "not-signed-in-as-rater" }>> {
  const call = limiter.countedInOwnStatement();
  let counted: CountedRating;
  try {
    counted = await (countAndRateCardOfLearner(database, rating, call, sessionTokenHash === undefined ? {} : { sessionTokenHash }) as Promise<CountedRating>);
  } catch (error) {
    const decision = await limiter.registerRequest(rating.learnerKey).catch(() => null);
    if (decision?.status === "limited") throw tooManyStudyCalls(decision);
    throw error;
  }
  if (counted.status !== "counted") return counted;
  const decision = await call.decide(counted.requestCount);
  if (decision.status === "limited") throw tooManyStudyCalls(decision);
  if (counted.outcome === null) throw new Error("A rating within the study calls' limit was not rated.");
  return { status: "counted", outcome: counted.outcome };
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
