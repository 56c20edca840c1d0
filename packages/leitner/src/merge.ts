import { indexProgressByPairId } from "./card-state.ts";
import type { CardProgress } from "./types.ts";

function laterOf(first: string | null, second: string | null): string | null {
  if (first === null) return second;
  if (second === null) return first;
  return Date.parse(first) >= Date.parse(second) ? first : second;
}

function mergeOnePair(anonymous: CardProgress, account: CardProgress): CardProgress {
  const winner = anonymous.box > account.box ? anonymous : account;
  return {
    pairId: account.pairId,
    box: winner.box,
    reviewCount: anonymous.reviewCount + account.reviewCount,
    correctCount: anonymous.correctCount + account.correctCount,
    studiedAt: laterOf(anonymous.studiedAt, account.studiedAt),
    lastReviewedAt: laterOf(anonymous.lastReviewedAt, account.lastReviewedAt),
    dueAt: winner.dueAt,
  };
}

/**
 * merge-progress (spec §7): moves an anonymous learner's records into the account's. Where both have a card,
 * the higher box wins and brings its due date (equal boxes: the account's); review and correct counts are
 * added, since both are real answers by the same person; studiedAt and lastReviewedAt take the later time.
 * Returns the account's records in their order, then the cards only the anonymous learner had.
 * Not idempotent: the caller deletes the anonymous records in the same transaction.
 *
 * @example
 * const merged = mergeLearnerProgress(anonymousRecords, accountRecords);
 */
export function mergeLearnerProgress(
  anonymous: readonly CardProgress[],
  account: readonly CardProgress[],
): CardProgress[] {
  const anonymousByPairId = indexProgressByPairId(anonymous);
  const accountByPairId = indexProgressByPairId(account);
  const merged = account.map((accountProgress) => {
    const anonymousProgress = anonymousByPairId.get(accountProgress.pairId);
    return anonymousProgress === undefined ? accountProgress : mergeOnePair(anonymousProgress, accountProgress);
  });
  const onlyAnonymous = anonymous.filter((anonymousProgress) => !accountByPairId.has(anonymousProgress.pairId));
  return [...merged, ...onlyAnonymous];
}
