import { describe, expect, it } from "vitest";
import {
  createInitialSessionState,
  isSessionBlocked,
  readSavedSessionState,
  saveSessionState,
  sessionConfigFromNavigationState,
  sessionReducer,
  SESSION_CARDS_STORAGE_KEY,
  SESSION_STORAGE_KEY,
  summarizeSession,
  type SessionState,
} from "./session-state.ts";
import type { FlashcardPair } from "@atelier/site-api";

function pair(id: string, box: 1 | 2 | 3 | 4 | 5 = 1): FlashcardPair {
  return { id, english: `English ${id}`, swedish: `Svenska ${id}`, current_box: box, confidence: 1 };
}

function loaded(cards: FlashcardPair[], mode: "study" | "test" = "study", range: "all" | "memorized" = "all"): SessionState {
  return sessionReducer(createInitialSessionState({ mode, range, cardCount: 20 }), { type: "cards-loaded", cards });
}

describe("given a session config in navigation state", () => {
  it("should use it when it is well-formed and the spec's default (study, all, 20) otherwise", () => {
    expect(sessionConfigFromNavigationState({ mode: "test", range: "new", cardCount: 5, startIndex: 1, endIndex: 9 })).toEqual({ mode: "test", range: "new", cardCount: 5, startIndex: 1, endIndex: 9 });
    expect(sessionConfigFromNavigationState(null)).toEqual({ mode: "study", range: "all", cardCount: 20 });
    expect(sessionConfigFromNavigationState({ mode: "sleep" })).toEqual({ mode: "study", range: "all", cardCount: 20 });
  });
});

describe("given loaded cards", () => {
  it("should show the first card on side A", () => {
    const state = loaded([pair("a"), pair("b")]);
    expect(state).toMatchObject({ status: "active", index: 0, side: "A" });
  });

  it("should say 'No flashcard pairs available' when none came back", () => {
    expect(loaded([])).toMatchObject({ status: "empty", message: "No flashcard pairs available" });
  });

  it("should flip between side A and side B", () => {
    const flipped = sessionReducer(loaded([pair("a")]), { type: "flipped" });
    expect(flipped.side).toBe("B");
    expect(sessionReducer(flipped, { type: "flipped" }).side).toBe("A");
  });

  it("should move with Next and Previous in study mode, back on side A", () => {
    const flipped = sessionReducer(loaded([pair("a"), pair("b")]), { type: "flipped" });
    const next = sessionReducer(flipped, { type: "moved", direction: "next" });
    expect(next).toMatchObject({ index: 1, side: "A" });
    expect(sessionReducer(next, { type: "moved", direction: "next" }).index).toBe(1);
    expect(sessionReducer(next, { type: "moved", direction: "previous" }).index).toBe(0);
  });

  it("should ignore Next in test mode", () => {
    expect(sessionReducer(loaded([pair("a"), pair("b")], "test"), { type: "moved", direction: "next" }).index).toBe(0);
  });
});

describe("given a rating", () => {
  it("should store the new box, move on to the next card and flip back to side A", () => {
    const flipped = sessionReducer(loaded([pair("a"), pair("b")], "test"), { type: "flipped" });
    const rated = sessionReducer(flipped, { type: "rated", pairId: "a", currentBox: 2, anonymousLimitReached: false });
    expect(rated).toMatchObject({ index: 1, side: "A", status: "active" });
    expect(rated.cards[0]!.current_box).toBe(2);
  });

  it("should jump to the card with the lowest box after the last card in test mode", () => {
    let state = loaded([pair("a", 3), pair("b", 1), pair("c", 2)], "test");
    state = { ...state, index: 2 };
    const rated = sessionReducer(state, { type: "rated", pairId: "c", currentBox: 3, anonymousLimitReached: false });
    expect(rated.index).toBe(1);
  });

  it("should stay on the last card in study mode", () => {
    const state = { ...loaded([pair("a"), pair("b")]), index: 1 };
    expect(sessionReducer(state, { type: "rated", pairId: "b", currentBox: 2, anonymousLimitReached: false }).index).toBe(1);
  });

  it("should show the 'memorized all' screen once every loaded card is in box 5", () => {
    const state = loaded([pair("a", 5), pair("b", 4)], "test");
    const rated = sessionReducer({ ...state, index: 1 }, { type: "rated", pairId: "b", currentBox: 5, anonymousLimitReached: false });
    expect(rated.status).toBe("memorized-all");
  });

  it("should not show the 'memorized all' screen in a memorized session", () => {
    expect(loaded([pair("a", 5)], "test", "memorized").status).toBe("active");
  });
});

describe("given Mark as Studied", () => {
  it("should show the studied completion screen", () => {
    expect(sessionReducer(loaded([pair("a")]), { type: "marked-studied" }).status).toBe("studied");
  });

  it("should start over on a new config, as a review does", () => {
    const studied = sessionReducer(loaded([pair("a")]), { type: "marked-studied" });
    const requested = sessionReducer(studied, { type: "cards-requested", config: { mode: "test", range: "all", cardCount: 20 } });
    expect(requested).toMatchObject({ status: "loading", config: { mode: "test" }, cards: [] });
  });

  it("should test the same cards, from the first, with 'Test These Cards' and with 'Switch to Test Mode'", () => {
    const studying = sessionReducer(loaded([pair("a"), pair("b", 2), pair("c")]), { type: "moved", direction: "next" });
    const studied = sessionReducer(studying, { type: "marked-studied" });
    for (const before of [studying, studied]) {
      const testing = sessionReducer(before, { type: "switched-to-test" });
      expect(testing).toMatchObject({ status: "active", config: { mode: "test", range: "all", cardCount: 20 }, index: 0, side: "A" });
      expect(testing.cards.map((card) => card.id)).toEqual(["a", "b", "c"]);
    }
  });
});

describe("given an anonymous learner at the limit", () => {
  it("should block Next and Previous once a rating says the limit is reached", () => {
    const state = loaded([pair("a"), pair("b"), pair("c")]);
    const rated = sessionReducer(state, { type: "rated", pairId: "a", currentBox: 2, anonymousLimitReached: true });
    expect(isSessionBlocked(rated)).toBe(true);
    expect(sessionReducer(rated, { type: "moved", direction: "next" }).index).toBe(1);
    expect(sessionReducer(rated, { type: "moved", direction: "previous" }).index).toBe(1);
  });

  it("should keep the limit when new cards are requested", () => {
    const blocked = sessionReducer(loaded([pair("a")]), { type: "anonymous-limit-reached" });
    expect(isSessionBlocked(sessionReducer(blocked, { type: "cards-requested", config: { mode: "test", range: "all" } }))).toBe(true);
  });
});

describe("given a deleted pair", () => {
  it("should keep the position and end with 'No flashcard pairs available' when the last one goes", () => {
    const state = { ...loaded([pair("a"), pair("b")]), index: 1 };
    const afterFirst = sessionReducer(state, { type: "pair-deleted", pairId: "a" });
    expect(afterFirst).toMatchObject({ index: 0, cards: [pair("b")] });
    expect(sessionReducer(afterFirst, { type: "pair-deleted", pairId: "b" }).status).toBe("empty");
  });
});

describe("given session storage", () => {
  function memoryStorage(options: { refuses?: (key: string) => boolean } = {}) {
    const values = new Map<string, string>();
    const writes: string[] = [];
    return {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => {
        if (options.refuses?.(key)) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        writes.push(key);
        values.set(key, value);
      },
      removeItem: (key: string) => void values.delete(key),
      values,
      writes,
    };
  }
  const key = { groupId: "g1", locationKey: "k1" };

  it("should save under 'flashcard' and restore only for the same group and history entry", () => {
    const storage = memoryStorage();
    const state = sessionReducer(loaded([pair("a"), pair("b")]), { type: "moved", direction: "next" });
    saveSessionState(storage, key, state);
    expect(storage.values.has(SESSION_STORAGE_KEY)).toBe(true);
    expect(readSavedSessionState(storage, key)).toMatchObject({ index: 1, status: "active" });
    expect(readSavedSessionState(storage, { groupId: "g2", locationKey: "k1" })).toBeUndefined();
    expect(readSavedSessionState(storage, { groupId: "g1", locationKey: "k2" })).toBeUndefined();
  });

  it("should write the cards once, then only the position and the rated boxes at each flip, move and rating", () => {
    const storage = memoryStorage();
    let state = loaded([pair("a"), pair("b"), pair("c")], "test");
    let saved = saveSessionState(storage, key, state);
    for (const action of [{ type: "flipped" }, { type: "rated", pairId: "a", currentBox: 2, anonymousLimitReached: false }, { type: "flipped" }, { type: "rated", pairId: "b", currentBox: 1, anonymousLimitReached: false }] as const) {
      state = sessionReducer(state, action);
      saved = saveSessionState(storage, key, state, saved);
    }
    expect(storage.writes.filter((written) => written === SESSION_CARDS_STORAGE_KEY)).toHaveLength(1);
    expect(storage.writes.filter((written) => written === SESSION_STORAGE_KEY)).toHaveLength(5);
    // The position names the rated card's box, not the whole list again.
    expect(JSON.parse(storage.values.get(SESSION_STORAGE_KEY) ?? "").state.boxes).toEqual([["a", 2]]);
    expect(readSavedSessionState(storage, key)).toEqual(state);
  });

  it("should write the cards again with their boxes once the ratings since would make the position large", () => {
    const storage = memoryStorage();
    const cards = Array.from({ length: 100 }, (_, at) => pair(`p${at}`));
    let state = loaded(cards, "test");
    let saved = saveSessionState(storage, key, state);
    const longestPosition = { boxes: 0 };
    for (const card of cards.slice(0, 80)) {
      state = sessionReducer(state, { type: "rated", pairId: card.id, currentBox: 2, anonymousLimitReached: false });
      saved = saveSessionState(storage, key, state, saved);
      longestPosition.boxes = Math.max(longestPosition.boxes, JSON.parse(storage.values.get(SESSION_STORAGE_KEY) ?? "").state.boxes.length);
    }
    expect(storage.writes.filter((written) => written === SESSION_CARDS_STORAGE_KEY)).toHaveLength(2);
    expect(longestPosition.boxes).toBe(50);
    expect(readSavedSessionState(storage, key)).toEqual(state);
  });

  it("should write the cards again when a pair leaves or comes back, and restore the list as it is", () => {
    const storage = memoryStorage();
    let state = loaded([pair("a"), pair("b"), pair("c")]);
    let saved = saveSessionState(storage, key, state);
    state = sessionReducer(state, { type: "pair-deleted", pairId: "b" });
    saved = saveSessionState(storage, key, state, saved);
    expect(readSavedSessionState(storage, key)?.cards.map((card) => card.id)).toEqual(["a", "c"]);
    state = sessionReducer(state, { type: "pair-restored", pair: pair("b"), index: 1 });
    saveSessionState(storage, key, state, saved);
    expect(storage.writes.filter((written) => written === SESSION_CARDS_STORAGE_KEY)).toHaveLength(3);
    expect(readSavedSessionState(storage, key)).toEqual(state);
  });

  it("should never restore a position with cards written for another session", () => {
    const storage = memoryStorage();
    saveSessionState(storage, key, loaded([pair("a"), pair("b")]));
    const cardsOfTheFirst = storage.values.get(SESSION_CARDS_STORAGE_KEY) ?? "";
    saveSessionState(storage, { groupId: "g1", locationKey: "k2" }, loaded([pair("x"), pair("y")]));
    storage.values.set(SESSION_CARDS_STORAGE_KEY, cardsOfTheFirst);
    expect(readSavedSessionState(storage, { groupId: "g1", locationKey: "k2" })).toBeUndefined();
  });

  it("should leave nothing to restore when the storage refuses the new cards, rather than an older session", () => {
    let full = false;
    const attempts: string[] = [];
    const storage = memoryStorage({
      refuses: (written) => {
        attempts.push(written);
        return full && written === SESSION_CARDS_STORAGE_KEY;
      },
    });
    let state = loaded([pair("a"), pair("b"), pair("c")]);
    let saved = saveSessionState(storage, key, state);
    full = true;
    state = sessionReducer(state, { type: "pair-deleted", pairId: "a" });
    saved = saveSessionState(storage, key, state, saved);
    expect(readSavedSessionState(storage, key)).toBeUndefined();
    // Nor is the refused write tried again at each flip (a whole film's cards are megabytes of JSON).
    attempts.length = 0;
    for (const action of [{ type: "flipped" }, { type: "flipped" }] as const) {
      state = sessionReducer(state, action);
      saved = saveSessionState(storage, key, state, saved);
    }
    expect(attempts).toEqual([]);
    expect(storage.values.size).toBe(0);
  });

  it("should ignore a malformed saved value", () => {
    const storage = memoryStorage();
    storage.setItem(SESSION_STORAGE_KEY, "{not json");
    expect(readSavedSessionState(storage, key)).toBeUndefined();
    saveSessionState(storage, key, loaded([pair("a")]));
    storage.setItem(SESSION_CARDS_STORAGE_KEY, JSON.stringify({ id: "x", cards: [{ id: 1 }] }));
    expect(readSavedSessionState(storage, key)).toBeUndefined();
  });
});

describe("given the answers of a session", () => {
  const days = (box: 1 | 2 | 3 | 4 | 5) => ({ 1: 0, 2: 1, 3: 3, 4: 7, 5: 30 })[box];

  it("should count each card once, by its last answer, with the boxes it moved and the next due day", () => {
    const summary = summarizeSession(
      [
        { pairId: "a", isCorrect: true, fromBox: 2, toBox: 3 },
        { pairId: "b", isCorrect: false, fromBox: 3, toBox: 1 },
        { pairId: "c", isCorrect: false, fromBox: 1, toBox: 1 },
        { pairId: "c", isCorrect: true, fromBox: 1, toBox: 2 },
      ],
      days,
    );
    expect(summary).toEqual({ answered: 3, right: 2, again: 1, movedUp: 2, movedDown: 1, nextDueInDays: 0 });
  });

  it("should have nothing due before any answer", () => {
    expect(summarizeSession([], days)).toEqual({ answered: 0, right: 0, again: 0, movedUp: 0, movedDown: 0, nextDueInDays: undefined });
  });
});

describe("given a deleted pair", () => {
  it("should put it back where it was with Undo, on its front side", () => {
    const start = sessionReducer(loaded([pair("a"), pair("b"), pair("c")]), { type: "moved", direction: "next" });
    const deleted = sessionReducer(start, { type: "pair-deleted", pairId: "b" });
    expect(deleted.cards.map((card) => card.id)).toEqual(["a", "c"]);
    const restored = sessionReducer(deleted, { type: "pair-restored", pair: pair("b"), index: 1 });
    expect(restored.cards.map((card) => card.id)).toEqual(["a", "b", "c"]);
    expect(restored).toMatchObject({ index: 1, side: "A", status: "active" });
    expect(sessionReducer(restored, { type: "pair-restored", pair: pair("b"), index: 1 })).toBe(restored);
  });
});
