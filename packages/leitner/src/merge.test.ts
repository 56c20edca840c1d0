import { describe, expect, it } from "vitest";
import { mergeLearnerProgress } from "./merge.ts";
import type { CardProgress } from "./types.ts";

const anonymousInBox4: CardProgress = {
  pairId: "shared",
  box: 4,
  reviewCount: 5,
  correctCount: 4,
  studiedAt: "2026-01-01T08:00:00.000Z",
  lastReviewedAt: "2026-01-01T09:00:00.000Z",
  dueAt: "2026-01-08T00:00:00.000Z",
};
const accountInBox2: CardProgress = {
  pairId: "shared",
  box: 2,
  reviewCount: 3,
  correctCount: 1,
  studiedAt: "2025-12-01T08:00:00.000Z",
  lastReviewedAt: "2025-12-30T09:00:00.000Z",
  dueAt: "2025-12-31T00:00:00.000Z",
};

describe("mergeLearnerProgress", () => {
  describe("given a card both learners have", () => {
    it("keeps the anonymous box and due date when the anonymous box is higher, and adds the counts", () => {
      expect(mergeLearnerProgress([anonymousInBox4], [accountInBox2])).toEqual([
        {
          pairId: "shared",
          box: 4,
          reviewCount: 8,
          correctCount: 5,
          studiedAt: "2026-01-01T08:00:00.000Z",
          lastReviewedAt: "2026-01-01T09:00:00.000Z",
          dueAt: "2026-01-08T00:00:00.000Z",
        },
      ]);
    });

    it("keeps the account box and due date when the account box is higher", () => {
      const accountInBox5 = { ...accountInBox2, box: 5, dueAt: "2026-01-30T00:00:00.000Z" } as const;
      const [merged] = mergeLearnerProgress([anonymousInBox4], [accountInBox5]);
      expect(merged?.box).toBe(5);
      expect(merged?.dueAt).toBe("2026-01-30T00:00:00.000Z");
    });

    it("keeps the account's due date when the boxes are equal", () => {
      const anonymousInBox2 = { ...anonymousInBox4, box: 2, dueAt: "2026-01-02T00:00:00.000Z" } as const;
      const [merged] = mergeLearnerProgress([anonymousInBox2], [accountInBox2]);
      expect(merged?.box).toBe(2);
      expect(merged?.dueAt).toBe("2025-12-31T00:00:00.000Z");
    });

    it("takes the later time where one side has none", () => {
      const [merged] = mergeLearnerProgress([{ ...anonymousInBox4, studiedAt: null }], [accountInBox2]);
      expect(merged?.studiedAt).toBe("2025-12-01T08:00:00.000Z");
    });
  });

  it("keeps cards only one learner has: the account's first, then the anonymous learner's", () => {
    const accountOnly = { ...accountInBox2, pairId: "account-only" };
    const anonymousOnly = { ...anonymousInBox4, pairId: "anonymous-only" };
    const merged = mergeLearnerProgress([anonymousOnly, anonymousInBox4], [accountOnly, accountInBox2]);
    expect(merged.map((progress) => progress.pairId)).toEqual(["account-only", "shared", "anonymous-only"]);
    expect(merged[0]).toBe(accountOnly);
    expect(merged[2]).toBe(anonymousOnly);
  });

  it("returns the account's records when the anonymous learner has none", () => {
    expect(mergeLearnerProgress([], [accountInBox2])).toEqual([accountInBox2]);
  });

  it("refuses two records for one pair on one side", () => {
    expect(() => mergeLearnerProgress([anonymousInBox4, anonymousInBox4], [])).toThrow(/one record per learner and pair/);
  });
});
