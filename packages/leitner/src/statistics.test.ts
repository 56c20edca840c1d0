import { describe, expect, it } from "vitest";
import { indexProgressByPairId } from "./card-state.ts";
import { forecastDueCards } from "./schedule.ts";
import { computeGroupStatistics, describeDueDateClasses, dueDateClassOf, dueForecastFromTallies, groupStatisticsFromTallies, moveLearningStateCount, tallyProgress, type StatisticsTally } from "./statistics.ts";
import type { CardProgress } from "./types.ts";

const now = new Date("2026-01-01T10:00:00Z");

const pairs = [{ id: "p1" }, { id: "p2" }, { id: "p3" }, { id: "p4" }, { id: "p5" }, { id: "p6" }, { id: "p7" }, { id: "p8" }];

// p1 and p6 have no record (new). p2 was only marked as studied. Due now: p2, p4, p8.
const records: CardProgress[] = [
  { pairId: "p2", box: 1, reviewCount: 0, correctCount: 0, studiedAt: "2026-01-01T09:00:00.000Z", lastReviewedAt: null, dueAt: "2026-01-01T00:00:00.000Z" },
  { pairId: "p3", box: 2, reviewCount: 3, correctCount: 2, studiedAt: null, lastReviewedAt: "2025-12-31T12:00:00.000Z", dueAt: "2026-01-02T00:00:00.000Z" },
  { pairId: "p4", box: 3, reviewCount: 4, correctCount: 3, studiedAt: null, lastReviewedAt: "2025-12-28T12:00:00.000Z", dueAt: "2025-12-31T00:00:00.000Z" },
  { pairId: "p5", box: 5, reviewCount: 6, correctCount: 6, studiedAt: null, lastReviewedAt: "2025-12-21T12:00:00.000Z", dueAt: "2026-01-20T00:00:00.000Z" },
  { pairId: "p7", box: 4, reviewCount: 5, correctCount: 4, studiedAt: null, lastReviewedAt: "2025-12-29T12:00:00.000Z", dueAt: "2026-01-05T00:00:00.000Z" },
  { pairId: "p8", box: 5, reviewCount: 5, correctCount: 5, studiedAt: null, lastReviewedAt: "2025-11-25T12:00:00.000Z", dueAt: "2025-12-25T00:00:00.000Z" },
  { pairId: "other-group-pair", box: 5, reviewCount: 9, correctCount: 1, studiedAt: null, lastReviewedAt: null, dueAt: null },
];

describe("computeGroupStatistics", () => {
  describe("given a hand-made deck of eight cards", () => {
    const statistics = computeGroupStatistics(pairs, indexProgressByPairId(records), now);

    it("counts new, in-progress and memorized cards, which add up to the total", () => {
      expect(statistics.total).toBe(8);
      expect(statistics.not_started).toBe(2);
      expect(statistics.in_progress).toBe(4);
      expect(statistics.memorized).toBe(2);
    });

    it("spreads the in-progress cards over boxes 1 to 4", () => {
      expect(statistics.box_distribution).toEqual({ box1: 1, box2: 1, box3: 1, box4: 1 });
    });

    it("sums the reviews of the group's cards only and gives accuracy as a whole percent", () => {
      expect(statistics.total_reviews).toBe(23);
      // 20 right out of 23 = 86.96 %
      expect(statistics.accuracy).toBe(87);
    });

    it("counts every started card as reviewing and the memorized ones as learned", () => {
      expect(statistics.reviewing).toBe(6);
      expect(statistics.learned).toBe(2);
    });

    it("counts started cards whose due day has begun as due today", () => {
      expect(statistics.dueToday).toBe(3);
    });
  });

  it("gives zeros and an accuracy of 0 for a group nobody has studied", () => {
    expect(computeGroupStatistics(pairs.slice(0, 3), new Map(), now)).toEqual({
      total: 3,
      not_started: 3,
      in_progress: 0,
      memorized: 0,
      box_distribution: { box1: 0, box2: 0, box3: 0, box4: 0 },
      total_reviews: 0,
      accuracy: 0,
      reviewing: 0,
      learned: 0,
      dueToday: 0,
    });
  });

  it("counts more cards as due when the clock moves on", () => {
    const inAWeek = new Date("2026-01-08T10:00:00Z");
    // p3 (2 Jan) and p7 (5 Jan) become due; p5 (20 Jan) does not.
    expect(computeGroupStatistics(pairs, indexProgressByPairId(records), inAWeek).dueToday).toBe(5);
  });
});

describe("given a card that changes learning state after a rating", () => {
  const counts = { total: 10, not_started: 6, in_progress: 3, memorized: 1 };

  it("moves a new card into the in-progress count", () => {
    expect(moveLearningStateCount(counts, "new", "in-progress")).toEqual({ total: 10, not_started: 5, in_progress: 4, memorized: 1 });
  });

  it("moves a memorized card back to in progress after a wrong answer", () => {
    expect(moveLearningStateCount(counts, "memorized", "in-progress")).toEqual({ total: 10, not_started: 6, in_progress: 4, memorized: 0 });
  });

  it("leaves the counts as they are when the state does not change", () => {
    expect(moveLearningStateCount(counts, "in-progress", "in-progress")).toBe(counts);
  });

  it("never counts below zero when the screen's counts were older than the card's state", () => {
    expect(moveLearningStateCount({ not_started: 0, in_progress: 0, memorized: 0 }, "new", "in-progress")).toEqual({ not_started: 0, in_progress: 1, memorized: 0 });
  });
});

describe("given the stats counted from tallies, as a store's GROUP BY gives them", () => {
  const groupRecords = records.filter((record) => record.pairId !== "other-group-pair");

  it("should give the same stats and forecast as counting the records one by one", () => {
    const tallies = groupRecords.map(tallyProgress);
    expect(groupStatisticsFromTallies(pairs.length, tallies, now)).toEqual(computeGroupStatistics(pairs, indexProgressByPairId(records), now));
    expect(dueForecastFromTallies(tallies, now)).toEqual(forecastDueCards(groupRecords, now));
  });

  it("should count a tally of several records as that many cards, and new records as not started and never due", () => {
    const tallies: StatisticsTally[] = [
      { box: 2, dueAt: "2026-01-01T00:00:00.000Z", isNew: false, cards: 3, reviews: 6, correctReviews: 3 },
      { box: 5, dueAt: "2026-01-05T00:00:00.000Z", isNew: false, cards: 2, reviews: 10, correctReviews: 10 },
      { box: 1, dueAt: null, isNew: true, cards: 4, reviews: 0, correctReviews: 0 },
    ];
    expect(groupStatisticsFromTallies(12, tallies, now)).toEqual({
      total: 12,
      not_started: 7,
      in_progress: 3,
      memorized: 2,
      box_distribution: { box1: 0, box2: 3, box3: 0, box4: 0 },
      total_reviews: 16,
      accuracy: 81,
      reviewing: 5,
      learned: 2,
      dueToday: 3,
    });
    expect(dueForecastFromTallies(tallies, now)).toEqual([3, 0, 0, 0, 2, 0, 0]);
    expect(dueForecastFromTallies(tallies, now, 3)).toEqual([3, 0, 0]);
  });

  it("should refuse a forecast of no days and an invalid clock", () => {
    expect(() => dueForecastFromTallies([], now, 0)).toThrow(RangeError);
    expect(() => groupStatisticsFromTallies(0, [], new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe("given the due date classes a store tallies records by", () => {
  const hour = 60 * 60 * 1000;
  const startOfToday = Date.UTC(2026, 0, 1);
  // Every hour from three days before today to ten days after, and each day's start, the clock's instant and a
  // millisecond either side of them.
  const dueDates = [
    null,
    ...Array.from({ length: 13 * 24 }, (_, index) => new Date(startOfToday - 3 * 24 * hour + index * hour).toISOString()),
    ...Array.from({ length: 12 }, (_, day) => startOfToday + day * 24 * hour).flatMap((instant) => [instant - 1, instant, instant + 1].map((time) => new Date(time).toISOString())),
    ...[now.getTime() - 1, now.getTime(), now.getTime() + 1].map((time) => new Date(time).toISOString()),
  ];
  const started = (dueAt: string | null): CardProgress => ({ pairId: "p", box: 3, reviewCount: 2, correctCount: 1, studiedAt: null, lastReviewedAt: "2025-12-31T12:00:00.000Z", dueAt });

  it("should describe the clock's instant and the end of each forecast day", () => {
    expect(describeDueDateClasses(now, 2)).toEqual({ dueAtOrBefore: "2026-01-01T10:00:00.000Z", dayEnds: ["2026-01-02T00:00:00.000Z", "2026-01-03T00:00:00.000Z"] });
    expect(describeDueDateClasses(now).dayEnds).toHaveLength(7);
  });

  it("should class a date as due exactly when the stats count it due, and by the forecast's day otherwise", () => {
    const classes = describeDueDateClasses(now);
    for (const dueAt of dueDates) {
      const dueDateClass = dueDateClassOf(dueAt, classes);
      const isDue = groupStatisticsFromTallies(1, [tallyProgress(started(dueAt))], now).dueToday === 1;
      expect(dueDateClass === -1, `${dueAt}`).toBe(isDue);
      const forecastDay = forecastDueCards([started(dueAt)], now, 8).indexOf(1);
      expect(dueDateClass, `${dueAt}`).toBe(isDue ? -1 : Math.min(forecastDay === -1 ? 7 : forecastDay, 7));
    }
  });

  it("should give the same stats and forecast when each class's records are tallied under one of their due dates", () => {
    const classes = describeDueDateClasses(now);
    const recordsOfDates = dueDates.map((dueAt, index) => ({ ...started(dueAt), pairId: `p${index}`, box: ((index % 5) + 1) as CardProgress["box"] }));
    const byClass = new Map<string, StatisticsTally>();
    for (const record of recordsOfDates) {
      const key = `${record.box} ${dueDateClassOf(record.dueAt, classes)}`;
      const tally = byClass.get(key);
      if (tally === undefined) byClass.set(key, tallyProgress(record));
      else {
        tally.cards += 1;
        tally.reviews += record.reviewCount;
        tally.correctReviews += record.correctCount;
      }
    }
    const onePerRecord = recordsOfDates.map(tallyProgress);
    expect(byClass.size).toBeLessThanOrEqual(5 * 9);
    expect(groupStatisticsFromTallies(recordsOfDates.length, byClass.values(), now)).toEqual(groupStatisticsFromTallies(recordsOfDates.length, onePerRecord, now));
    expect(dueForecastFromTallies(byClass.values(), now)).toEqual(dueForecastFromTallies(onePerRecord, now));
  });

  it("should refuse a forecast of no days and an invalid clock", () => {
    expect(() => describeDueDateClasses(now, 0)).toThrow(RangeError);
    expect(() => describeDueDateClasses(new Date(Number.NaN))).toThrow(RangeError);
  });
});
