import { learningStateOf } from "./card-state.ts";
import { assertValidClock, isCardDue } from "./schedule.ts";
import type { CardLearningState, GroupStatistics, PairWithId, ProgressByPairId } from "./types.ts";

/**
 * The group stats of spec §3 for one learner, counting only the given pairs (records of other groups are ignored).
 * not_started, in_progress and memorized follow `learningStateOf`; box_distribution counts started cards in
 * boxes 1–4; accuracy is a whole percent; reviewing is every started card; learned equals memorized; dueToday
 * counts started cards whose due day has begun.
 *
 * @example
 * const stats = { name: group.name, ...computeGroupStatistics(group.pairs, progressByPairId, new Date()) };
 */
export function computeGroupStatistics(
  pairs: readonly PairWithId[],
  progressByPairId: ProgressByPairId,
  now: Date,
): GroupStatistics {
  assertValidClock(now);
  const statistics: GroupStatistics = {
    total: pairs.length,
    not_started: 0,
    in_progress: 0,
    memorized: 0,
    box_distribution: { box1: 0, box2: 0, box3: 0, box4: 0 },
    total_reviews: 0,
    accuracy: 0,
    reviewing: 0,
    learned: 0,
    dueToday: 0,
  };
  let correctReviews = 0;

  for (const pair of pairs) {
    const progress = progressByPairId.get(pair.id);
    statistics.total_reviews += progress?.reviewCount ?? 0;
    correctReviews += progress?.correctCount ?? 0;
    if (isCardDue(progress, now)) statistics.dueToday += 1;

    const learningState = learningStateOf(progress);
    switch (learningState) {
      case "new":
        statistics.not_started += 1;
        break;
      case "memorized":
        statistics.memorized += 1;
        break;
      case "in-progress":
        statistics.in_progress += 1;
        if (progress !== undefined && progress.box !== 5) statistics.box_distribution[`box${progress.box}`] += 1;
        break;
      default:
        learningState satisfies never;
    }
  }

  statistics.reviewing = statistics.in_progress + statistics.memorized;
  statistics.learned = statistics.memorized;
  statistics.accuracy =
    statistics.total_reviews === 0 ? 0 : Math.round((correctReviews / statistics.total_reviews) * 100);
  return statistics;
}

/** The three counts of a group's stats that follow each card's learning state. */
export type LearningStateCounts = Pick<GroupStatistics, "not_started" | "in_progress" | "memorized">;

const countKeyOfLearningState = {
  new: "not_started",
  "in-progress": "in_progress",
  memorized: "memorized",
} as const satisfies Record<CardLearningState, keyof LearningStateCounts>;

/**
 * The counts after one card moved from one learning state to another, so a screen keeps its stats true after a rating
 * without asking for the whole group's stats again. Counts never go below 0.
 *
 * @example
 * setStats((stats) => moveLearningStateCount(stats, "new", "in-progress"));
 */
export function moveLearningStateCount<Counts extends LearningStateCounts>(counts: Counts, from: CardLearningState, to: CardLearningState): Counts {
  if (from === to) return counts;
  const fromKey = countKeyOfLearningState[from];
  const toKey = countKeyOfLearningState[to];
  return { ...counts, [fromKey]: Math.max(0, counts[fromKey] - 1), [toKey]: counts[toKey] + 1 };
}
