import { learningStateOf } from "./card-state.ts";
import { assertValidClock, isCardDue } from "./schedule.ts";
import type { GroupStatistics, PairWithId, ProgressByPairId } from "./types.ts";

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
