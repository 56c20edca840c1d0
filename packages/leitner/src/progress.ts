import { FIRST_BOX, MEMORIZED_BOX } from "./constants.ts";
import { assertValidClock, computeDueAt } from "./schedule.ts";
import type { BoxNumber, CardProgress } from "./types.ts";

function nextBoxAfterCorrectAnswer(box: BoxNumber): BoxNumber {
  switch (box) {
    case 1:
      return 2;
    case 2:
      return 3;
    case 3:
      return 4;
    case 4:
    case 5:
      return MEMORIZED_BOX;
    default:
      return box satisfies never;
  }
}

/**
 * Records one rating (spec §4): right raises the box by 1, capped at 5; wrong sends the card to box 1.
 * The card is then due again after its new box's interval. A card without a record starts in box 1.
 *
 * @example
 * const saved = rateCard(progressByPairId.get(pairId), pairId, body.is_correct, new Date());
 */
export function rateCard(
  progress: CardProgress | undefined,
  pairId: string,
  isCorrect: boolean,
  now: Date,
): CardProgress {
  assertValidClock(now);
  if (progress !== undefined && progress.pairId !== pairId) {
    throw new Error(
      `rateCard received the record of pair "${progress.pairId}" for pair "${pairId}": look the record up by the rated pair's id.`,
    );
  }
  const currentBox = progress?.box ?? FIRST_BOX;
  const box = isCorrect ? nextBoxAfterCorrectAnswer(currentBox) : FIRST_BOX;
  return {
    pairId,
    box,
    reviewCount: (progress?.reviewCount ?? 0) + 1,
    correctCount: (progress?.correctCount ?? 0) + (isCorrect ? 1 : 0),
    studiedAt: progress?.studiedAt ?? null,
    lastReviewedAt: now.toISOString(),
    dueAt: computeDueAt(box, now),
  };
}

/**
 * Marks cards as studied (Mark as Studied, Switch to Test Mode): sets `studiedAt` to now. A card without a record
 * gets one in box 1, due today, so it leaves "new" and shows up in "in-progress". Boxes and due dates of cards
 * that already have a record stay as they are. Returns every record: the given ones (updated where named) in
 * their order, then the new ones in the order of `pairIds`.
 *
 * @example
 * const records = markCardsStudied(learnerRecords, body.pairIds, new Date());
 */
export function markCardsStudied(
  progresses: readonly CardProgress[],
  pairIds: readonly string[],
  now: Date,
): CardProgress[] {
  assertValidClock(now);
  const studiedAt = now.toISOString();
  const pairIdsToMark = new Set(pairIds);
  const updated = progresses.map((progress) =>
    pairIdsToMark.has(progress.pairId) ? { ...progress, studiedAt } : progress,
  );
  const pairIdsWithRecord = new Set(progresses.map((progress) => progress.pairId));
  const created: CardProgress[] = [];
  for (const pairId of pairIdsToMark) {
    if (pairIdsWithRecord.has(pairId)) continue;
    created.push({
      pairId,
      box: FIRST_BOX,
      reviewCount: 0,
      correctCount: 0,
      studiedAt,
      lastReviewedAt: null,
      dueAt: computeDueAt(FIRST_BOX, now),
    });
  }
  return [...updated, ...created];
}

/**
 * Reset Progress (spec §4): every card of the group goes back to "new", which is having no record.
 * Returns the records to keep (those of other groups' pairs); the caller deletes the rest.
 *
 * @example
 * const kept = resetProgress(learnerRecords, group.pairs.map((pair) => pair.id));
 */
export function resetProgress(progresses: readonly CardProgress[], pairIdsOfGroup: readonly string[]): CardProgress[] {
  const pairIdsToReset = new Set(pairIdsOfGroup);
  return progresses.filter((progress) => !pairIdsToReset.has(progress.pairId));
}
