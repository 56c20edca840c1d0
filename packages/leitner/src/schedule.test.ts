import { describe, expect, it } from "vitest";
import { computeDueAt, isCardDue } from "./schedule.ts";
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
