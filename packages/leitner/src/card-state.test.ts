import { describe, expect, it } from "vitest";
import { currentBoxOf, indexProgressByPairId, isCardInStudyRange, learningStateOf } from "./card-state.ts";
import type { CardProgress } from "./types.ts";

const studiedOnly: CardProgress = {
  pairId: "pair-1",
  box: 1,
  reviewCount: 0,
  correctCount: 0,
  studiedAt: "2026-01-01T09:00:00.000Z",
  lastReviewedAt: null,
  dueAt: "2026-01-01T00:00:00.000Z",
};
const emptyRecord: CardProgress = { ...studiedOnly, studiedAt: null, dueAt: null };
const inBox4: CardProgress = { ...studiedOnly, box: 4, reviewCount: 3, correctCount: 3 };
const memorized: CardProgress = { ...studiedOnly, box: 5, reviewCount: 4, correctCount: 4 };

describe("learningStateOf", () => {
  it("says a card without a record is new", () => {
    expect(learningStateOf(undefined)).toBe("new");
  });

  it("says a record never studied nor rated is still new", () => {
    expect(learningStateOf(emptyRecord)).toBe("new");
  });

  it("says a card marked as studied but never rated is in progress", () => {
    expect(learningStateOf(studiedOnly)).toBe("in-progress");
  });

  it("says a card in boxes 1 to 4 is in progress and one in box 5 is memorized", () => {
    expect(learningStateOf(inBox4)).toBe("in-progress");
    expect(learningStateOf(memorized)).toBe("memorized");
  });
});

describe("currentBoxOf", () => {
  it("gives box 1 for a new card and the record's box otherwise", () => {
    expect(currentBoxOf(undefined)).toBe(1);
    expect(currentBoxOf(inBox4)).toBe(4);
  });
});

describe("isCardInStudyRange", () => {
  it("puts each card in its own range, in all, and started cards in reviewing", () => {
    expect(isCardInStudyRange(undefined, "new")).toBe(true);
    expect(isCardInStudyRange(undefined, "reviewing")).toBe(false);
    expect(isCardInStudyRange(inBox4, "in-progress")).toBe(true);
    expect(isCardInStudyRange(inBox4, "new")).toBe(false);
    expect(isCardInStudyRange(inBox4, "reviewing")).toBe(true);
    expect(isCardInStudyRange(memorized, "memorized")).toBe(true);
    expect(isCardInStudyRange(memorized, "in-progress")).toBe(false);
    expect(isCardInStudyRange(memorized, "reviewing")).toBe(true);
    expect(isCardInStudyRange(undefined, "all")).toBe(true);
    expect(isCardInStudyRange(memorized, "all")).toBe(true);
  });
});

describe("indexProgressByPairId", () => {
  it("looks records up by pair id", () => {
    expect(indexProgressByPairId([inBox4]).get("pair-1")).toBe(inBox4);
  });

  it("refuses two records for one pair", () => {
    expect(() => indexProgressByPairId([inBox4, memorized])).toThrow(/one record per learner and pair/);
  });
});
