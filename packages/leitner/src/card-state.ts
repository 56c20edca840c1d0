import { FIRST_BOX, MEMORIZED_BOX } from "./constants.ts";
import type { BoxNumber, CardLearningState, CardProgress, ProgressByPairId, StudyRange } from "./types.ts";

/**
 * Where a card stands. No record, or a record that was never studied nor rated, is "new"; box 5 is
 * "memorized"; every other started card (boxes 1–4) is "in-progress".
 *
 * @example
 * learningStateOf(progressByPairId.get(pair.id)); // "new" | "in-progress" | "memorized"
 */
export function learningStateOf(progress: CardProgress | undefined): CardLearningState {
  if (progress === undefined) return "new";
  if (progress.reviewCount === 0 && progress.studiedAt === null) return "new";
  if (progress.box === MEMORIZED_BOX) return "memorized";
  return "in-progress";
}

/**
 * The pair's `current_box` (spec §3): the record's box, or box 1 for a new card.
 *
 * @example
 * const flashcardPair = { ...pair, current_box: currentBoxOf(progressByPairId.get(pair.id)) };
 */
export function currentBoxOf(progress: CardProgress | undefined): BoxNumber {
  return progress?.box ?? FIRST_BOX;
}

/**
 * Turns one learner's records into the lookup the engine reads. Two records for one pair are a bug in the
 * caller's storage (one record per learner and pair), so they throw.
 *
 * @example
 * const progressByPairId = indexProgressByPairId(await loadProgressRows(learnerId));
 */
export function indexProgressByPairId(progresses: readonly CardProgress[]): ProgressByPairId {
  const progressByPairId = new Map<string, CardProgress>();
  for (const progress of progresses) {
    if (progressByPairId.has(progress.pairId)) {
      throw new Error(
        `Two progress records for pair "${progress.pairId}": the caller's storage must keep one record per learner and pair.`,
      );
    }
    progressByPairId.set(progress.pairId, progress);
  }
  return progressByPairId;
}

/**
 * Whether a card belongs to a range: new, in-progress and memorized by its learning state, "all" always,
 * "reviewing" when it has been started (in progress or memorized).
 *
 * @example
 * pairs.filter((pair) => isCardInStudyRange(progressByPairId.get(pair.id), "in-progress"));
 */
export function isCardInStudyRange(progress: CardProgress | undefined, range: StudyRange): boolean {
  const learningState = learningStateOf(progress);
  switch (range) {
    case "new":
      return learningState === "new";
    case "in-progress":
      return learningState === "in-progress";
    case "memorized":
      return learningState === "memorized";
    case "all":
      return true;
    case "reviewing":
      return learningState !== "new";
    default:
      return range satisfies never;
  }
}
