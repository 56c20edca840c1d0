import { learningStateOf } from "./card-state.ts";
import { MEMORIZED_BOX } from "./constants.ts";
import { assertForecastDays, assertValidClock, dueDayOfStartedCard, isStartedCardDue, MILLISECONDS_PER_DAY, startOfUtcDayInMilliseconds } from "./schedule.ts";
import type { BoxNumber, CardLearningState, CardProgress, GroupStatistics, PairWithId, ProgressByPairId } from "./types.ts";

/**
 * Records that count alike in the group stats (the same box, due date and newness), and how many they are: what a
 * store's `GROUP BY box, due_at` answers, so the stats need not load the records (issue 16).
 */
export interface StatisticsTally {
  box: BoxNumber;
  dueAt: string | null;
  /** New records (never studied nor rated, see `learningStateOf`) count as not started and are never due. */
  isNew: boolean;
  cards: number;
  reviews: number;
  correctReviews: number;
}

/**
 * One record as a tally of one card.
 *
 * @example
 * groupStatisticsFromTallies(pairs.length, records.map(tallyProgress), new Date());
 */
export function tallyProgress(progress: CardProgress): StatisticsTally {
  return {
    box: progress.box,
    dueAt: progress.dueAt,
    isNew: learningStateOf(progress) === "new",
    cards: 1,
    reviews: progress.reviewCount,
    correctReviews: progress.correctCount,
  };
}

/**
 * The group stats of spec §3 at `now` from the tallies of the records of `pairCount` pairs; pairs without a record are
 * new. not_started, in_progress and memorized follow `learningStateOf`; box_distribution counts started cards in
 * boxes 1–4; accuracy is a whole percent; reviewing is every started card; learned equals memorized; dueToday
 * counts started cards whose due day has begun (`isCardDue`).
 *
 * @example
 * const stats = groupStatisticsFromTallies(group.pairCount, tallies, new Date());
 */
export function groupStatisticsFromTallies(pairCount: number, tallies: Iterable<StatisticsTally>, now: Date): GroupStatistics {
  assertValidClock(now);
  const statistics: GroupStatistics = {
    total: pairCount,
    not_started: pairCount,
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
  for (const tally of tallies) {
    statistics.total_reviews += tally.reviews;
    correctReviews += tally.correctReviews;
    const learningState = learningStateOfTally(tally);
    switch (learningState) {
      case "new":
        continue;
      case "memorized":
        statistics.memorized += tally.cards;
        break;
      case "in-progress":
        statistics.in_progress += tally.cards;
        if (tally.box !== MEMORIZED_BOX) statistics.box_distribution[`box${tally.box}`] += tally.cards;
        break;
      default:
        learningState satisfies never;
    }
    statistics.not_started -= tally.cards;
    if (isStartedCardDue(tally.dueAt, now)) statistics.dueToday += tally.cards;
  }
  statistics.reviewing = statistics.in_progress + statistics.memorized;
  statistics.learned = statistics.memorized;
  statistics.accuracy = statistics.total_reviews === 0 ? 0 : Math.round((correctReviews / statistics.total_reviews) * 100);
  return statistics;
}

function learningStateOfTally(tally: StatisticsTally): CardLearningState {
  if (tally.isNew) return "new";
  return tally.box === MEMORIZED_BOX ? "memorized" : "in-progress";
}

/**
 * Started cards falling due on each of the next `days` UTC days at `now`, from tallies: the same answer as
 * `forecastDueCards` over the records.
 *
 * @example
 * const forecast = dueForecastFromTallies(tallies, new Date(), 7); // [12, 0, 4, 0, 0, 9, 0]
 */
export function dueForecastFromTallies(tallies: Iterable<StatisticsTally>, now: Date, days = 7): number[] {
  assertValidClock(now);
  assertForecastDays(days);
  const forecast = new Array<number>(days).fill(0);
  for (const tally of tallies) {
    if (tally.isNew) continue;
    const dueDay = dueDayOfStartedCard(tally.dueAt, now);
    if (dueDay < days) forecast[dueDay] = (forecast[dueDay] ?? 0) + tally.cards;
  }
  return forecast;
}

/**
 * The classes of due dates the stats tell apart at `now`, as bounds a store can compare its due dates with in SQL
 * (ISO 8601 UTC text as `computeDueAt` writes it, which sorts as time does). Started records of one box, newness and
 * class count alike in `groupStatisticsFromTallies` and `dueForecastFromTallies`, so a store may tally them together
 * under any one due date of the class: a few tallies however many days the learner has studied on (issue 16).
 * See `dueDateClassOf` for which class a date falls in.
 */
export interface DueDateClasses {
  /** A started card with no due date, or one at or before this, is due (class -1). */
  dueAtOrBefore: string;
  /** One per forecast day: a date not due and before `dayEnds[k]` (and no earlier end) falls due on day k; after the last, later (class `days`). */
  dayEnds: string[];
}

/**
 * The due date classes of the stats and of a `days`-day forecast at `now`.
 *
 * @example
 * describeDueDateClasses(new Date("2026-01-01T10:00:00Z"), 2);
 * // { dueAtOrBefore: "2026-01-01T10:00:00.000Z", dayEnds: ["2026-01-02T00:00:00.000Z", "2026-01-03T00:00:00.000Z"] }
 */
export function describeDueDateClasses(now: Date, days = 7): DueDateClasses {
  assertValidClock(now);
  assertForecastDays(days);
  const startOfToday = startOfUtcDayInMilliseconds(now);
  return {
    dueAtOrBefore: now.toISOString(),
    dayEnds: Array.from({ length: days }, (_, day) => new Date(startOfToday + (day + 1) * MILLISECONDS_PER_DAY).toISOString()),
  };
}

/**
 * The class of a started card's due date: -1 when due, k when it falls due on forecast day k, `dayEnds.length` when
 * later. A store's SQL spells the same comparisons as a `case`.
 *
 * @example
 * dueDateClassOf("2026-01-02T00:00:00.000Z", describeDueDateClasses(new Date("2026-01-01T10:00:00Z"))); // 1
 */
export function dueDateClassOf(dueAt: string | null, classes: DueDateClasses): number {
  if (dueAt === null || dueAt <= classes.dueAtOrBefore) return -1;
  const day = classes.dayEnds.findIndex((dayEnd) => dueAt < dayEnd);
  return day === -1 ? classes.dayEnds.length : day;
}

/**
 * The group stats of spec §3 for one learner, counting only the given pairs (records of other groups are ignored);
 * see `groupStatisticsFromTallies` for what each number counts.
 *
 * @example
 * const stats = { name: group.name, ...computeGroupStatistics(group.pairs, progressByPairId, new Date()) };
 */
export function computeGroupStatistics(
  pairs: readonly PairWithId[],
  progressByPairId: ProgressByPairId,
  now: Date,
): GroupStatistics {
  const tallies: StatisticsTally[] = [];
  for (const pair of pairs) {
    const progress = progressByPairId.get(pair.id);
    if (progress !== undefined) tallies.push(tallyProgress(progress));
  }
  return groupStatisticsFromTallies(pairs.length, tallies, now);
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
