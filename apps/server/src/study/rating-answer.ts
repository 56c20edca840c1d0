import { isAnonymousLimitReached, learningStateOf, ANONYMOUS_MEMORIZED_CARD_LIMIT } from "@atelier/leitner";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { HttpError } from "../http/http-errors.ts";
import { createFixedWindowRateLimiter } from "../rate-limit/fixed-window-rate-limiter.ts";
import type { RateLimitDecision } from "../rate-limit/rate-limiter.ts";
import type { Learner } from "./learner.ts";
import { rateCardOfLearner, type RatingOutcome, type RatingRequest } from "./rating-store.ts";

export const pairNotFoundMessage = "This flashcard pair does not exist.";
export const anonymousLimitMessage = "You have memorized 5 cards. Please sign in to keep studying and keep your progress.";
export const tooManyStudyCallsMessage = "Too many requests in a short time. Please wait a moment and try again.";
/** Unsafe study calls per learner (ratings, mark-studied, renames…), per minute. */
export const studyApiRateLimit = { maximumRequests: 600, windowMilliseconds: 60_000 };

/**
 * The limit on a learner's unsafe study calls, counted in the database: one limiter for the study routes and the node
 * front's rating, so that a learner's calls count once in one window whichever answers them.
 *
 * @example
 * const studyCallLimiter = createStudyCallLimiter({ database, clock, rateLimit: configuration.studyRateLimit });
 */
export function createStudyCallLimiter(options: { database: AtelierDatabase; clock: Clock; rateLimit?: { maximumRequests: number; windowMilliseconds: number } }) {
  return createFixedWindowRateLimiter({ database: options.database, scope: "study-api", limit: options.rateLimit ?? studyApiRateLimit, clock: options.clock });
}

export type StudyCallLimiter = ReturnType<typeof createStudyCallLimiter>;

/** A learner over the study calls' limit: 429 with `Retry-After`. */
export function tooManyStudyCalls(decision: Extract<RateLimitDecision, { status: "limited" }>): HttpError {
  return new HttpError(429, tooManyStudyCallsMessage, { headers: { "Retry-After": String(decision.retryAfterSeconds) } });
}

/** What `rateCardOfLearner` needs to rate a card for this learner. */
export function ratingRequestOf(learner: Learner, pairId: string, isCorrect: boolean, now: Date): RatingRequest {
  return {
    learnerKey: learner.key,
    userId: learner.kind === "signed-in" ? learner.userId : null,
    memorizedLimit: learner.kind === "anonymous" ? ANONYMOUS_MEMORIZED_CARD_LIMIT : null,
    pairId,
    isCorrect,
    now,
  };
}

/** Spec §7's answer to a rating, or the 404 of an unknown pair or the 403 of an anonymous learner at the limit (thrown). */
export function ratingAnswerOf(learner: Learner, outcome: RatingOutcome) {
  if (outcome.status === "not-found") throw new HttpError(404, pairNotFoundMessage);
  if (outcome.status === "limit-reached") throw new HttpError(403, anonymousLimitMessage);
  return {
    pair: { id: outcome.pair.id, current_box: outcome.saved.box },
    memorized: outcome.memorized,
    anonymous_limit_reached: learner.kind === "anonymous" && isAnonymousLimitReached(outcome.memorized),
    // Additive: the session screen moves its counts with this instead of asking for the group's stats again.
    learning_state: { before: learningStateOf(outcome.before), after: learningStateOf(outcome.saved) },
  };
}

/**
 * Rates a card for a learner and answers spec §7's body (POST /api/subtitle-pairs/:id/rate/), or throws the 404 of an
 * unknown pair or the 403 of an anonymous learner at the limit. The study routes' rating.
 *
 * @example
 * const body = await rateAsLearner(database, learner, pairId, true, clock());
 */
export async function rateAsLearner(database: AtelierDatabase, learner: Learner, pairId: string, isCorrect: boolean, now: Date) {
  return ratingAnswerOf(learner, await rateCardOfLearner(database, ratingRequestOf(learner, pairId, isCorrect, now)));
}
