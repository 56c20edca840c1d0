import { describe, expect, it } from "vitest";
import { indexProgressByPairId } from "./card-state.ts";
import {
  allLoadedCardsMemorized,
  cardCountOptions,
  clampSessionWindow,
  describeSessionSelection,
  countAvailableCards,
  nextCardIndexAfterRating,
  selectSessionCards,
} from "./session.ts";
import type { CardProgress } from "./types.ts";

const now = new Date("2026-01-01T10:00:00Z");

// Eight pairs in group order. p1 and p6 are new; p2, p3, p4, p7 in progress; p5 and p8 memorized.
// Due now (due day begun): p2, p4, p8.
const pairs = [
  { id: "p1", english: "Hello", swedish: "Hej" },
  { id: "p2", english: "Thanks", swedish: "Tack" },
  { id: "p3", english: "Yes", swedish: "Ja" },
  { id: "p4", english: "No", swedish: "Nej" },
  { id: "p5", english: "Good night", swedish: "God natt" },
  { id: "p6", english: "Welcome", swedish: "Välkommen" },
  { id: "p7", english: "Sorry", swedish: "Förlåt" },
  { id: "p8", english: "Goodbye", swedish: "Hej då" },
];

const records: CardProgress[] = [
  { pairId: "p2", box: 1, reviewCount: 0, correctCount: 0, studiedAt: "2026-01-01T09:00:00.000Z", lastReviewedAt: null, dueAt: "2026-01-01T00:00:00.000Z" },
  { pairId: "p3", box: 2, reviewCount: 3, correctCount: 2, studiedAt: null, lastReviewedAt: "2025-12-31T12:00:00.000Z", dueAt: "2026-01-02T00:00:00.000Z" },
  { pairId: "p4", box: 3, reviewCount: 4, correctCount: 3, studiedAt: null, lastReviewedAt: "2025-12-28T12:00:00.000Z", dueAt: "2025-12-31T00:00:00.000Z" },
  { pairId: "p5", box: 5, reviewCount: 6, correctCount: 6, studiedAt: null, lastReviewedAt: "2025-12-21T12:00:00.000Z", dueAt: "2026-01-20T00:00:00.000Z" },
  { pairId: "p7", box: 4, reviewCount: 5, correctCount: 4, studiedAt: null, lastReviewedAt: "2025-12-29T12:00:00.000Z", dueAt: "2026-01-05T00:00:00.000Z" },
  { pairId: "p8", box: 5, reviewCount: 5, correctCount: 5, studiedAt: null, lastReviewedAt: "2025-11-25T12:00:00.000Z", dueAt: "2025-12-25T00:00:00.000Z" },
];
const progressByPairId = indexProgressByPairId(records);

function idsOf(cards: readonly { id: string }[]): string[] {
  return cards.map((card) => card.id);
}

describe("selectSessionCards", () => {
  describe("given study mode and the whole group", () => {
    it("draws new cards, those without progress, for range new", () => {
      expect(idsOf(selectSessionCards(pairs, progressByPairId, { mode: "study", range: "new" }, now))).toEqual(["p1", "p6"]);
    });

    it("draws started cards in boxes 1 to 4 for range in-progress, including a card only marked as studied", () => {
      expect(idsOf(selectSessionCards(pairs, progressByPairId, { mode: "study", range: "in-progress" }, now))).toEqual([
        "p2",
        "p3",
        "p4",
        "p7",
      ]);
    });

    it("draws cards in box 5 for range memorized", () => {
      expect(idsOf(selectSessionCards(pairs, progressByPairId, { mode: "study", range: "memorized" }, now))).toEqual(["p5", "p8"]);
    });

    it("draws every card in group order for range all", () => {
      expect(idsOf(selectSessionCards(pairs, progressByPairId, { mode: "study", range: "all" }, now))).toEqual([
        "p1",
        "p2",
        "p3",
        "p4",
        "p5",
        "p6",
        "p7",
        "p8",
      ]);
    });

    it("draws every started card, memorized ones too, for range reviewing", () => {
      expect(idsOf(selectSessionCards(pairs, progressByPairId, { mode: "study", range: "reviewing" }, now))).toEqual([
        "p2",
        "p3",
        "p4",
        "p5",
        "p7",
        "p8",
      ]);
    });

    it("returns the pairs it was given, with all their fields", () => {
      expect(selectSessionCards(pairs, progressByPairId, { mode: "study", range: "new" }, now)[0]).toBe(pairs[0]);
    });
  });

  describe("given a start and end index", () => {
    it("keeps group positions startIndex to endIndex, 1-based and inclusive", () => {
      const config = { mode: "study", range: "all", startIndex: 3, endIndex: 6 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p3", "p4", "p5", "p6"]);
    });

    it("counts positions in the whole group, not in the range", () => {
      const config = { mode: "study", range: "new", startIndex: 3, endIndex: 6 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p6"]);
    });

    it("starts at position 1 when startIndex is left out and ends at the last when endIndex is left out", () => {
      expect(idsOf(selectSessionCards(pairs, progressByPairId, { mode: "study", range: "all", endIndex: 2 }, now))).toEqual(["p1", "p2"]);
      expect(idsOf(selectSessionCards(pairs, progressByPairId, { mode: "study", range: "all", startIndex: 7 }, now))).toEqual(["p7", "p8"]);
    });

    it("clamps an endIndex beyond the group to the group's total", () => {
      const config = { mode: "study", range: "all", startIndex: 8, endIndex: 100 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p8"]);
    });

    it("caps a startIndex past the endIndex at the endIndex, as the From slider is capped at To", () => {
      const config = { mode: "study", range: "all", startIndex: 7, endIndex: 5 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p5"]);
    });

    it("refuses an index that is not a whole number of 1 or more", () => {
      expect(() => selectSessionCards(pairs, progressByPairId, { mode: "study", range: "all", startIndex: 0 }, now)).toThrow(RangeError);
      expect(() => selectSessionCards(pairs, progressByPairId, { mode: "study", range: "all", endIndex: 2.5 }, now)).toThrow(RangeError);
    });
  });

  describe("given a card count", () => {
    it("keeps the first cardCount cards", () => {
      const config = { mode: "study", range: "all", cardCount: 3 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p1", "p2", "p3"]);
    });

    it("keeps every card when the range holds fewer than cardCount", () => {
      const config = { mode: "study", range: "memorized", cardCount: 20 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p5", "p8"]);
    });

    it("applies the count after the window and the range", () => {
      const config = { mode: "study", range: "in-progress", startIndex: 3, cardCount: 2 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p3", "p4"]);
    });

    it("refuses a count of zero or a fraction", () => {
      expect(() => selectSessionCards(pairs, progressByPairId, { mode: "study", range: "all", cardCount: 0 }, now)).toThrow(RangeError);
      expect(() => selectSessionCards(pairs, progressByPairId, { mode: "study", range: "all", cardCount: 1.5 }, now)).toThrow(RangeError);
    });
  });

  describe("given test mode", () => {
    it("puts new and due cards first, then the lowest box, then group order", () => {
      expect(idsOf(selectSessionCards(pairs, progressByPairId, { mode: "test", range: "all" }, now))).toEqual([
        "p1",
        "p2",
        "p6",
        "p4",
        "p8",
        "p3",
        "p7",
        "p5",
      ]);
    });

    it("takes the card count after ordering, so the neediest cards are tested", () => {
      const config = { mode: "test", range: "all", cardCount: 4 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p1", "p2", "p6", "p4"]);
    });

    it("reviews due cards first for range reviewing", () => {
      const config = { mode: "test", range: "reviewing", cardCount: 5 } as const;
      expect(idsOf(selectSessionCards(pairs, progressByPairId, config, now))).toEqual(["p2", "p4", "p8", "p3", "p7"]);
    });
  });

  it("returns no cards for an empty group", () => {
    expect(selectSessionCards([], progressByPairId, { mode: "test", range: "all", startIndex: 1, endIndex: 1 }, now)).toEqual([]);
  });
});

describe("nextCardIndexAfterRating", () => {
  const sessionCards = [{ id: "p3" }, { id: "p4" }, { id: "p7" }];

  it("moves to the next card before the last one, in both modes", () => {
    expect(nextCardIndexAfterRating(sessionCards, 0, "test", progressByPairId)).toBe(1);
    expect(nextCardIndexAfterRating(sessionCards, 1, "study", progressByPairId)).toBe(2);
  });

  it("jumps from the last card to the card with the lowest box in test mode", () => {
    expect(nextCardIndexAfterRating(sessionCards, 2, "test", progressByPairId)).toBe(0);
  });

  it("reads the boxes after the rating, so a last card just rated wrong is shown again", () => {
    const afterWrongAnswer = indexProgressByPairId([
      ...records.filter((record) => record.pairId !== "p7"),
      { pairId: "p7", box: 1, reviewCount: 6, correctCount: 4, studiedAt: null, lastReviewedAt: now.toISOString(), dueAt: "2026-01-01T00:00:00.000Z" },
    ]);
    expect(nextCardIndexAfterRating(sessionCards, 2, "test", afterWrongAnswer)).toBe(2);
  });

  it("picks the first of several cards sharing the lowest box, counting new cards as box 1", () => {
    expect(nextCardIndexAfterRating([{ id: "p5" }, { id: "p1" }, { id: "p2" }], 2, "test", progressByPairId)).toBe(1);
  });

  it("stays on the last card in study mode", () => {
    expect(nextCardIndexAfterRating(sessionCards, 2, "study", progressByPairId)).toBe(2);
  });

  it("refuses an index outside the session", () => {
    expect(() => nextCardIndexAfterRating(sessionCards, 3, "test", progressByPairId)).toThrow(RangeError);
    expect(() => nextCardIndexAfterRating([], 0, "test", progressByPairId)).toThrow(RangeError);
  });
});

describe("countAvailableCards", () => {
  it("counts the cards each range holds", () => {
    expect(countAvailableCards(pairs, progressByPairId, "new")).toBe(2);
    expect(countAvailableCards(pairs, progressByPairId, "in-progress")).toBe(4);
    expect(countAvailableCards(pairs, progressByPairId, "memorized")).toBe(2);
    expect(countAvailableCards(pairs, progressByPairId, "all")).toBe(8);
    expect(countAvailableCards(pairs, progressByPairId, "reviewing")).toBe(6);
  });
});

describe("cardCountOptions", () => {
  it("offers nothing when the range is empty", () => {
    expect(cardCountOptions(0)).toEqual([]);
  });

  it("offers only the exact count when it is below 5", () => {
    expect(cardCountOptions(3)).toEqual([3]);
  });

  it("offers the options below the count plus the exact count", () => {
    expect(cardCountOptions(23)).toEqual([5, 10, 20, 23]);
  });

  it("does not repeat an option equal to the count", () => {
    expect(cardCountOptions(20)).toEqual([5, 10, 20]);
    expect(cardCountOptions(250)).toEqual([5, 10, 20, 30, 50, 100, 250]);
  });

  it("offers every option and the count when the range holds more than 250", () => {
    expect(cardCountOptions(300)).toEqual([5, 10, 20, 30, 50, 100, 250, 300]);
  });

  it("refuses a negative or fractional count", () => {
    expect(() => cardCountOptions(-1)).toThrow(RangeError);
    expect(() => cardCountOptions(2.5)).toThrow(RangeError);
  });
});

describe("allLoadedCardsMemorized", () => {
  it("is true when every loaded card is in box 5 and the range is new, in-progress or all", () => {
    const loaded = [{ id: "p5" }, { id: "p8" }];
    expect(allLoadedCardsMemorized(loaded, progressByPairId, "all")).toBe(true);
    expect(allLoadedCardsMemorized(loaded, progressByPairId, "new")).toBe(true);
    expect(allLoadedCardsMemorized(loaded, progressByPairId, "in-progress")).toBe(true);
  });

  it("is false for ranges memorized and reviewing, which load memorized cards on purpose", () => {
    const loaded = [{ id: "p5" }, { id: "p8" }];
    expect(allLoadedCardsMemorized(loaded, progressByPairId, "memorized")).toBe(false);
    expect(allLoadedCardsMemorized(loaded, progressByPairId, "reviewing")).toBe(false);
  });

  it("is false when one loaded card is below box 5", () => {
    expect(allLoadedCardsMemorized([{ id: "p5" }, { id: "p7" }], progressByPairId, "all")).toBe(false);
  });

  it("is false when no card is loaded", () => {
    expect(allLoadedCardsMemorized([], progressByPairId, "all")).toBe(false);
  });
});

describe("describeSessionSelection", () => {
  it("describes a test session as the window, the range's states, the test order, the clock and the limit", () => {
    expect(describeSessionSelection({ mode: "test", range: "reviewing", cardCount: 20, startIndex: 3, endIndex: 9 }, now)).toEqual({
      window: { startIndex: 3, endIndex: 9 },
      learningStates: ["in-progress", "memorized"],
      order: ["needs-practice-now", "box", "position"],
      dueAtOrBefore: "2026-01-01T10:00:00.000Z",
      limit: 20,
    });
  });

  it("describes a study session over the whole group in group order without a limit", () => {
    expect(describeSessionSelection({ mode: "study", range: "all" }, now)).toEqual({
      window: { startIndex: 1, endIndex: null },
      learningStates: ["new", "in-progress", "memorized"],
      order: ["position"],
      dueAtOrBefore: "2026-01-01T10:00:00.000Z",
      limit: null,
    });
  });

  it("refuses a card count, start or end that is not a whole number of 1 or more", () => {
    expect(() => describeSessionSelection({ mode: "study", range: "all", cardCount: 0 }, now)).toThrow(RangeError);
    expect(() => describeSessionSelection({ mode: "study", range: "all", startIndex: 1.5 }, now)).toThrow(RangeError);
    expect(() => describeSessionSelection({ mode: "study", range: "all", endIndex: -1 }, now)).toThrow(RangeError);
  });
});

describe("clampSessionWindow", () => {
  it("keeps a window inside the list as it is", () => {
    expect(clampSessionWindow({ startIndex: 2, endIndex: 5 }, 8)).toEqual({ firstPosition: 2, lastPosition: 5 });
  });

  it("ends an open or overlong window at the last pair", () => {
    expect(clampSessionWindow({ startIndex: 2, endIndex: null }, 8)).toEqual({ firstPosition: 2, lastPosition: 8 });
    expect(clampSessionWindow({ startIndex: 2, endIndex: 80 }, 8)).toEqual({ firstPosition: 2, lastPosition: 8 });
  });

  it("caps a start past the end at the end, as the From slider is capped at To", () => {
    expect(clampSessionWindow({ startIndex: 7, endIndex: 4 }, 8)).toEqual({ firstPosition: 4, lastPosition: 4 });
    expect(clampSessionWindow({ startIndex: 30, endIndex: null }, 8)).toEqual({ firstPosition: 8, lastPosition: 8 });
  });

  it("has no window in an empty list", () => {
    expect(clampSessionWindow({ startIndex: 1, endIndex: null }, 0)).toBeNull();
  });
});
