import { describe, expect, it } from "vitest";
import { rateCard } from "./progress.ts";
import { computeDueAt, describeReviewDelay, forecastDueCards, isCardDue, nextReviewAfterAnswer } from "./schedule.ts";
import type { CardProgress } from "./types.ts";

const now = new Date("2026-01-01T10:00:00Z");

function startedProgress(dueAt: string | null): CardProgress {
  return { pairId: "pair-1", box: 2, reviewCount: 1, correctCount: 1, studiedAt: null, lastReviewedAt: null, dueAt };
}

describe("computeDueAt", () => {
  it("puts box 1 on the start of today", () => {
    expect(computeDueAt(1, now)).toBe("2026-01-01T00:00:00.000Z");
  });

  it("puts boxes 2, 3, 4 and 5 on 1, 3, 7 and 30 days after the start of today", () => {
    expect(computeDueAt(2, now)).toBe("2026-01-02T00:00:00.000Z");
    expect(computeDueAt(3, now)).toBe("2026-01-04T00:00:00.000Z");
    expect(computeDueAt(4, now)).toBe("2026-01-08T00:00:00.000Z");
    expect(computeDueAt(5, now)).toBe("2026-01-31T00:00:00.000Z");
  });

  it("counts days in UTC, so a rating just before midnight UTC is due the next UTC day", () => {
    expect(computeDueAt(2, new Date("2026-01-01T23:59:00Z"))).toBe("2026-01-02T00:00:00.000Z");
  });
});

describe("isCardDue", () => {
  it("says a card without a record is not due, because it is new", () => {
    expect(isCardDue(undefined, now)).toBe(false);
  });

  it("says a card whose due day has begun is due", () => {
    expect(isCardDue(startedProgress("2026-01-01T00:00:00.000Z"), now)).toBe(true);
  });

  it("says a card due tomorrow is not due", () => {
    expect(isCardDue(startedProgress("2026-01-02T00:00:00.000Z"), now)).toBe(false);
  });

  it("says a started card that was never scheduled is due", () => {
    expect(isCardDue(startedProgress(null), now)).toBe(true);
  });
});

describe("given a card and an answer not yet given", () => {
  it("should say where a right answer takes it and when it comes back, up to box 5", () => {
    expect(nextReviewAfterAnswer(1, true)).toEqual({ box: 2, daysUntilDue: 1 });
    expect(nextReviewAfterAnswer(2, true)).toEqual({ box: 3, daysUntilDue: 3 });
    expect(nextReviewAfterAnswer(4, true)).toEqual({ box: 5, daysUntilDue: 30 });
    expect(nextReviewAfterAnswer(5, true)).toEqual({ box: 5, daysUntilDue: 30 });
  });

  it("should send a wrong answer back to box 1, due the same day", () => {
    for (const box of [1, 2, 3, 4, 5] as const) expect(nextReviewAfterAnswer(box, false)).toEqual({ box: 1, daysUntilDue: 0 });
  });

  it("should agree with rateCard's due date", () => {
    const now = new Date("2026-03-10T15:00:00Z");
    const rated = rateCard(undefined, "p", true, now);
    const expected = nextReviewAfterAnswer(1, true);
    expect(rated.box).toBe(expected.box);
    expect(Date.parse(rated.dueAt ?? "") - Date.UTC(2026, 2, 10)).toBe(expected.daysUntilDue * 86_400_000);
  });

  it("should put the delay in words", () => {
    expect([0, 1, 3, 30].map(describeReviewDelay)).toEqual(["today", "tomorrow", "in 3 days", "in 30 days"]);
  });
});

describe("forecastDueCards", () => {
  const newCard: CardProgress = { pairId: "new", box: 1, reviewCount: 0, correctCount: 0, studiedAt: null, lastReviewedAt: null, dueAt: null };

  it("puts overdue cards and cards due today on day 0, later ones on their day, and leaves out new cards and cards beyond the window", () => {
    const records = [
      startedProgress("2025-12-20T00:00:00.000Z"),
      startedProgress("2026-01-01T00:00:00.000Z"),
      startedProgress(null),
      startedProgress("2026-01-02T00:00:00.000Z"),
      startedProgress("2026-01-04T00:00:00.000Z"),
      startedProgress("2026-01-04T00:00:00.000Z"),
      startedProgress("2026-01-07T00:00:00.000Z"),
      startedProgress("2026-01-08T00:00:00.000Z"),
      newCard,
    ];
    expect(forecastDueCards(records, now)).toEqual([3, 1, 0, 2, 0, 0, 1]);
  });

  it("follows the clock: the same cards a week later are all due today", () => {
    const records = [startedProgress("2026-01-02T00:00:00.000Z"), startedProgress("2026-01-04T00:00:00.000Z")];
    expect(forecastDueCards(records, new Date("2026-01-08T09:00:00Z"), 3)).toEqual([2, 0, 0]);
  });

  it("refuses a window that is not a whole number of days", () => {
    expect(() => forecastDueCards([], now, 0)).toThrow(RangeError);
    expect(() => forecastDueCards([], now, 2.5)).toThrow(RangeError);
  });
});
