import { describe, expect, it } from "vitest";
import { markCardsStudied, rateCard, resetProgress } from "./progress.ts";
import type { BoxNumber, CardProgress } from "./types.ts";

const now = new Date("2026-01-01T10:00:00Z");

function progressInBox(box: BoxNumber, pairId = "pair-1"): CardProgress {
  return {
    pairId,
    box,
    reviewCount: 4,
    correctCount: 3,
    studiedAt: "2025-12-20T09:00:00.000Z",
    lastReviewedAt: "2025-12-30T09:00:00.000Z",
    dueAt: "2025-12-31T00:00:00.000Z",
  };
}

describe("rateCard", () => {
  describe("given a right answer", () => {
    it("raises the box by one", () => {
      expect(rateCard(progressInBox(1), "pair-1", true, now).box).toBe(2);
      expect(rateCard(progressInBox(2), "pair-1", true, now).box).toBe(3);
      expect(rateCard(progressInBox(3), "pair-1", true, now).box).toBe(4);
      expect(rateCard(progressInBox(4), "pair-1", true, now).box).toBe(5);
    });

    it("keeps a card in box 5, the cap", () => {
      expect(rateCard(progressInBox(5), "pair-1", true, now).box).toBe(5);
    });

    it("moves a card without a record from box 1 to box 2", () => {
      expect(rateCard(undefined, "pair-1", true, now)).toEqual({
        pairId: "pair-1",
        box: 2,
        reviewCount: 1,
        correctCount: 1,
        studiedAt: null,
        lastReviewedAt: "2026-01-01T10:00:00.000Z",
        dueAt: "2026-01-02T00:00:00.000Z",
      });
    });

    it("counts one more review and one more right answer", () => {
      const rated = rateCard(progressInBox(2), "pair-1", true, now);
      expect(rated.reviewCount).toBe(5);
      expect(rated.correctCount).toBe(4);
    });
  });

  describe("given a wrong answer", () => {
    it("sends a card from any box back to box 1", () => {
      for (const box of [1, 2, 3, 4, 5] as const) {
        expect(rateCard(progressInBox(box), "pair-1", false, now).box).toBe(1);
      }
    });

    it("counts one more review but no more right answers", () => {
      const rated = rateCard(progressInBox(4), "pair-1", false, now);
      expect(rated.reviewCount).toBe(5);
      expect(rated.correctCount).toBe(3);
    });

    it("makes the card due again today", () => {
      expect(rateCard(progressInBox(4), "pair-1", false, now).dueAt).toBe("2026-01-01T00:00:00.000Z");
    });
  });

  it("schedules the card by its new box: 0, 1, 3, 7 and 30 days from the start of today (UTC)", () => {
    expect(rateCard(undefined, "pair-1", false, now).dueAt).toBe("2026-01-01T00:00:00.000Z");
    expect(rateCard(progressInBox(1), "pair-1", true, now).dueAt).toBe("2026-01-02T00:00:00.000Z");
    expect(rateCard(progressInBox(2), "pair-1", true, now).dueAt).toBe("2026-01-04T00:00:00.000Z");
    expect(rateCard(progressInBox(3), "pair-1", true, now).dueAt).toBe("2026-01-08T00:00:00.000Z");
    expect(rateCard(progressInBox(4), "pair-1", true, now).dueAt).toBe("2026-01-31T00:00:00.000Z");
    expect(rateCard(progressInBox(5), "pair-1", true, now).dueAt).toBe("2026-01-31T00:00:00.000Z");
  });

  it("records the rating time and keeps the studied time", () => {
    const rated = rateCard(progressInBox(3), "pair-1", true, now);
    expect(rated.lastReviewedAt).toBe("2026-01-01T10:00:00.000Z");
    expect(rated.studiedAt).toBe("2025-12-20T09:00:00.000Z");
  });

  it("does not change the record it was given", () => {
    const progress = progressInBox(3);
    rateCard(progress, "pair-1", true, now);
    expect(progress).toEqual(progressInBox(3));
  });

  it("refuses another pair's record", () => {
    expect(() => rateCard(progressInBox(3, "pair-2"), "pair-1", true, now)).toThrow(/look the record up/);
  });

  it("refuses an invalid clock", () => {
    expect(() => rateCard(undefined, "pair-1", true, new Date("not a date"))).toThrow(/invalid Date/);
  });
});

describe("markCardsStudied", () => {
  it("creates a box-1 record due today for a card without one", () => {
    expect(markCardsStudied([], ["pair-1"], now)).toEqual([
      {
        pairId: "pair-1",
        box: 1,
        reviewCount: 0,
        correctCount: 0,
        studiedAt: "2026-01-01T10:00:00.000Z",
        lastReviewedAt: null,
        dueAt: "2026-01-01T00:00:00.000Z",
      },
    ]);
  });

  it("sets the studied time of an existing record and keeps its box, counts and due date", () => {
    const [marked] = markCardsStudied([progressInBox(4)], ["pair-1"], now);
    expect(marked).toEqual({ ...progressInBox(4), studiedAt: "2026-01-01T10:00:00.000Z" });
  });

  it("leaves records that were not named untouched and appends new ones once, in the order named", () => {
    const untouched = progressInBox(3, "pair-9");
    const marked = markCardsStudied([untouched], ["pair-2", "pair-1", "pair-2"], now);
    expect(marked.map((progress) => progress.pairId)).toEqual(["pair-9", "pair-2", "pair-1"]);
    expect(marked[0]).toBe(untouched);
  });
});

describe("resetProgress", () => {
  it("removes the group's records so every card of the group is new again", () => {
    const kept = resetProgress(
      [progressInBox(5, "pair-1"), progressInBox(2, "pair-2"), progressInBox(3, "other-group-pair")],
      ["pair-1", "pair-2", "pair-3"],
    );
    expect(kept).toEqual([progressInBox(3, "other-group-pair")]);
  });
});
