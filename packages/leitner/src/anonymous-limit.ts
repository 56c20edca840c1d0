import { ANONYMOUS_MEMORIZED_CARD_LIMIT } from "./constants.ts";
import type { GroupStatistics, LearnerKind } from "./types.ts";

/**
 * Whether an anonymous learner with this many memorized cards must sign in (spec §6): 5 or more.
 *
 * @example
 * isAnonymousLimitReached(5); // true
 */
export function isAnonymousLimitReached(memorizedCount: number): boolean {
  return memorizedCount >= ANONYMOUS_MEMORIZED_CARD_LIMIT;
}

/**
 * Whether an anonymous learner may still rate (and use Next and Previous) given the group's stats.
 *
 * @example
 * if (!canAnonymousLearnerRate(stats)) openLoginPrompt();
 */
export function canAnonymousLearnerRate(statistics: Pick<GroupStatistics, "memorized">): boolean {
  return !isAnonymousLimitReached(statistics.memorized);
}

/**
 * Whether this learner may rate: signed-in learners always, anonymous ones below the limit.
 *
 * @example
 * if (!canLearnerRate(session.user ? "signed-in" : "anonymous", stats)) throw new HTTPException(403);
 */
export function canLearnerRate(learnerKind: LearnerKind, statistics: Pick<GroupStatistics, "memorized">): boolean {
  switch (learnerKind) {
    case "signed-in":
      return true;
    case "anonymous":
      return canAnonymousLearnerRate(statistics);
    default:
      return learnerKind satisfies never;
  }
}
