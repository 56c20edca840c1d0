import { describe, expect, it } from "vitest";
import * as leitner from "./index.ts";

describe("the package entry point", () => {
  it("names every public function and constant", () => {
    expect(Object.keys(leitner).sort()).toEqual(
      [
        "ANONYMOUS_MEMORIZED_CARD_LIMIT",
        "CARD_COUNT_OPTIONS",
        "DEFAULT_PREVIEW_PAGE_SIZE",
        "DEFAULT_SESSION_CONFIG",
        "DEFAULT_SETUP",
        "FIRST_BOX",
        "MEMORIZED_BOX",
        "PREVIEW_PAGE_SIZES",
        "REVIEW_INTERVAL_DAYS_BY_BOX",
        "REVIEW_OPTIONS",
        "allLoadedCardsMemorized",
        "canAnonymousLearnerRate",
        "canLearnerRate",
        "clampSessionWindow",
        "cardCountOptions",
        "computeDueAt",
        "computeGroupStatistics",
        "countAvailableCards",
        "currentBoxOf",
        "describeDueDateClasses",
        "describeReviewDelay",
        "describeSessionSelection",
        "dueDateClassOf",
        "dueForecastFromTallies",
        "forecastDueCards",
        "groupStatisticsFromTallies",
        "indexProgressByPairId",
        "isAnonymousLimitReached",
        "isCardDue",
        "isCardInStudyRange",
        "learningStateOf",
        "markCardsStudied",
        "mergeLearnerProgress",
        "moveLearningStateCount",
        "nextCardIndexAfterRating",
        "nextReviewAfterAnswer",
        "rateCard",
        "resetProgress",
        "selectSessionCards",
        "tallyProgress",
      ].sort(),
    );
  });

  it("runs a session end to end on a fixed clock", () => {
    const now = new Date("2026-01-01T10:00:00Z");
    const pairs = [{ id: "a" }, { id: "b" }, { id: "c" }];
    let records = leitner.markCardsStudied([], ["a", "b"], now);
    records = records.map((record) => leitner.rateCard(record, record.pairId, record.pairId === "a", now));
    const progressByPairId = leitner.indexProgressByPairId(records);
    expect(leitner.computeGroupStatistics(pairs, progressByPairId, now)).toMatchObject({
      not_started: 1,
      in_progress: 2,
      box_distribution: { box1: 1, box2: 1, box3: 0, box4: 0 },
      total_reviews: 2,
      accuracy: 50,
      dueToday: 1,
    });
    const cards = leitner.selectSessionCards(pairs, progressByPairId, { mode: "test", range: "in-progress" }, now);
    expect(cards.map((card) => card.id)).toEqual(["b", "a"]);
  });
});
