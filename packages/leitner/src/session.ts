import { isCardInStudyRange, currentBoxOf, learningStateOf } from "./card-state.ts";
import { CARD_COUNT_OPTIONS } from "./constants.ts";
import { assertValidClock, isCardDue } from "./schedule.ts";
import type { CardLearningState, CardProgress, PairWithId, ProgressByPairId, SessionConfig, SessionMode, StudyRange } from "./types.ts";

function assertWholeNumberAtLeastOne(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(
      `${name} must be a whole number of 1 or more, got ${String(value)}; parse and validate the query before calling selectSessionCards.`,
    );
  }
}

const learningStatesByRange: Record<StudyRange, readonly CardLearningState[]> = {
  new: ["new"],
  "in-progress": ["in-progress"],
  memorized: ["memorized"],
  all: ["new", "in-progress", "memorized"],
  reviewing: ["in-progress", "memorized"],
};

/**
 * How a session's cards are chosen, as plain data a store can run as a query (spec §2.13, §3, §9; decision 0015).
 * Positions count the pairs the learner studies (hidden ones left out), in group order, from 1.
 */
export interface SessionSelection {
  /** The index window, 1-based and inclusive; `endIndex` null means the last pair. Clamp it to the list with `clampSessionWindow`. */
  window: { startIndex: number; endIndex: number | null };
  /** The range filter: the learning states the range admits (see `learningStateOf`). */
  learningStates: readonly CardLearningState[];
  /**
   * Sort keys, each ascending: `position` in the window; `needs-practice-now`, 0 for a new card or a started card due
   * at `dueAtOrBefore` (see `isCardDue`: no due date counts as due), 1 for one that can wait; `box`, the current box
   * (1 without a record, see `currentBoxOf`).
   */
  order: SessionOrder;
  /** The instant "due" is measured at, as `toISOString()` text: due dates at or before it have begun. */
  dueAtOrBefore: string;
  /** At most this many cards; null means every card that matches. */
  limit: number | null;
}

/** Study keeps group order; test puts the cards that need practice now first, then the lowest box, then group order. */
export type SessionOrder = readonly ["position"] | readonly ["needs-practice-now", "box", "position"];

/**
 * The session config as a selection: what `selectSessionCards` runs over pairs in memory and a store runs as SQL.
 * Throws a `RangeError` on a count or index that is not a whole number of 1 or more.
 *
 * @example
 * const selection = describeSessionSelection({ mode: "test", range: "all", cardCount: 20 }, new Date());
 * // { window: { startIndex: 1, endIndex: null }, learningStates: ["new", "in-progress", "memorized"],
 * //   order: ["needs-practice-now", "box", "position"], dueAtOrBefore: "…", limit: 20 }
 */
export function describeSessionSelection(config: SessionConfig, now: Date): SessionSelection {
  assertValidClock(now);
  assertWholeNumberAtLeastOne("cardCount", config.cardCount);
  assertWholeNumberAtLeastOne("startIndex", config.startIndex);
  assertWholeNumberAtLeastOne("endIndex", config.endIndex);
  return {
    window: { startIndex: config.startIndex ?? 1, endIndex: config.endIndex ?? null },
    learningStates: learningStatesByRange[config.range],
    order: orderOfMode(config.mode),
    dueAtOrBefore: now.toISOString(),
    limit: config.cardCount ?? null,
  };
}

function orderOfMode(mode: SessionMode): SessionOrder {
  switch (mode) {
    case "study":
      return ["position"];
    case "test":
      return ["needs-practice-now", "box", "position"];
    default:
      return mode satisfies never;
  }
}

/**
 * The window's first and last positions (1-based, inclusive) in a list of `pairCount` pairs: clamped to the list, a
 * start past the end capped at the end (as the From slider is capped at To); null for an empty list.
 *
 * @example
 * clampSessionWindow({ startIndex: 40, endIndex: 90 }, 60); // { firstPosition: 40, lastPosition: 60 }
 */
export function clampSessionWindow(window: SessionSelection["window"], pairCount: number): { firstPosition: number; lastPosition: number } | null {
  if (pairCount === 0) return null;
  const lastPosition = Math.min(window.endIndex ?? pairCount, pairCount);
  return { firstPosition: Math.min(window.startIndex, lastPosition), lastPosition };
}

/** 0 for a card that needs practice now (new, or due), 1 for one that can wait. */
function urgencyOf(progress: CardProgress | undefined, now: Date): 0 | 1 {
  if (learningStateOf(progress) === "new") return 0;
  return isCardDue(progress, now) ? 0 : 1;
}

/**
 * Picks a session's cards (spec §2.13, §3, §9) by running `describeSessionSelection` over pairs in memory:
 * 1. the index window: group positions `startIndex` to `endIndex`, 1-based and inclusive, as the setup's
 *    'Study by Range' sliders span 1 to total (left out: the whole group; beyond the group: clamped;
 *    a start past the end is capped at the end, as the From slider is capped at To);
 * 2. the range filter (new, in-progress, memorized, all, reviewing);
 * 3. the order: study keeps group order; test puts cards that need practice now (new or due) first, then the
 *    lowest box first, then group order;
 * 4. the first `cardCount` cards (left out: all of them).
 *
 * @example
 * const cards = selectSessionCards(group.pairs, progressByPairId, { mode: "test", range: "all", cardCount: 20 }, new Date());
 */
export function selectSessionCards<Pair extends PairWithId>(
  pairs: readonly Pair[],
  progressByPairId: ProgressByPairId,
  config: SessionConfig,
  now: Date,
): Pair[] {
  const selection = describeSessionSelection(config, now);
  const bounds = clampSessionWindow(selection.window, pairs.length);
  if (bounds === null) return [];
  const window = pairs.slice(bounds.firstPosition - 1, bounds.lastPosition);
  const dueAt = new Date(selection.dueAtOrBefore);

  const inRange = window
    .map((pair, positionInWindow) => ({ pair, positionInWindow, progress: progressByPairId.get(pair.id) }))
    .filter((candidate) => selection.learningStates.includes(learningStateOf(candidate.progress)));

  const ordered = orderBy(inRange, selection.order, dueAt);
  const selected = selection.limit === null ? ordered : ordered.slice(0, selection.limit);
  return selected.map((candidate) => candidate.pair);
}

interface Candidate<Pair> {
  pair: Pair;
  positionInWindow: number;
  progress: CardProgress | undefined;
}

function orderBy<Pair>(candidates: Candidate<Pair>[], order: SessionOrder, now: Date): Candidate<Pair>[] {
  const keyOf = (candidate: Candidate<Pair>, key: SessionOrder[number]): number => {
    switch (key) {
      case "position":
        return candidate.positionInWindow;
      case "needs-practice-now":
        return urgencyOf(candidate.progress, now);
      case "box":
        return currentBoxOf(candidate.progress);
      default:
        return key satisfies never;
    }
  };
  return [...candidates].sort((first, second) => {
    for (const key of order) {
      const difference = keyOf(first, key) - keyOf(second, key);
      if (difference !== 0) return difference;
    }
    return 0;
  });
}

/**
 * The index of the card to show after a rating (spec §4): the next one; at the last card, test mode jumps to the
 * card with the lowest box (the first of them in session order), while study mode stays on the last card
 * (study ends with Mark as Studied). Pass the records as they are after the rating.
 *
 * @example
 * setIndex(nextCardIndexAfterRating(cards, index, "test", progressByPairId));
 */
export function nextCardIndexAfterRating(
  sessionCards: readonly PairWithId[],
  currentIndex: number,
  mode: SessionMode,
  progressByPairId: ProgressByPairId,
): number {
  if (!Number.isInteger(currentIndex) || currentIndex < 0 || currentIndex >= sessionCards.length) {
    throw new RangeError(
      `currentIndex ${String(currentIndex)} is outside a session of ${sessionCards.length} cards; keep the index within the loaded cards.`,
    );
  }
  const lastIndex = sessionCards.length - 1;
  if (currentIndex < lastIndex) return currentIndex + 1;
  switch (mode) {
    case "study":
      return lastIndex;
    case "test":
      return indexOfLowestBox(sessionCards, progressByPairId);
    default:
      return mode satisfies never;
  }
}

function indexOfLowestBox(sessionCards: readonly PairWithId[], progressByPairId: ProgressByPairId): number {
  let lowestIndex = 0;
  let lowestBox = Number.POSITIVE_INFINITY;
  sessionCards.forEach((card, index) => {
    const box = currentBoxOf(progressByPairId.get(card.id));
    if (box < lowestBox) {
      lowestBox = box;
      lowestIndex = index;
    }
  });
  return lowestIndex;
}

/**
 * How many of the given pairs a range holds; the setup disables Study and Test at zero (spec §5).
 *
 * @example
 * const available = countAvailableCards(group.pairs, progressByPairId, "new");
 */
export function countAvailableCards(
  pairs: readonly PairWithId[],
  progressByPairId: ProgressByPairId,
  range: StudyRange,
): number {
  return pairs.filter((pair) => isCardInStudyRange(progressByPairId.get(pair.id), range)).length;
}

/**
 * The number-of-cards dropdown (spec §9): 5, 10, 20, 30, 50, 100, 250 below the available count, plus the
 * available count itself; empty when nothing is available.
 *
 * @example
 * cardCountOptions(23); // [5, 10, 20, 23]
 */
export function cardCountOptions(available: number): number[] {
  if (!Number.isInteger(available) || available < 0) {
    throw new RangeError(`available must be a whole number of 0 or more, got ${String(available)}.`);
  }
  if (available === 0) return [];
  return [...CARD_COUNT_OPTIONS.filter((option) => option < available), available];
}

/**
 * Whether to show the 'memorized all' screen (spec §4): there are loaded cards and all are in box 5, in a
 * session whose range is new, in-progress or all. Memorized and reviewing sessions load memorized cards on
 * purpose, so they never show it.
 *
 * @example
 * if (allLoadedCardsMemorized(cards, progressByPairId, config.range)) showMemorizedAllScreen();
 */
export function allLoadedCardsMemorized(
  cards: readonly PairWithId[],
  progressByPairId: ProgressByPairId,
  range: StudyRange,
): boolean {
  switch (range) {
    case "memorized":
    case "reviewing":
      return false;
    case "new":
    case "in-progress":
    case "all":
      return cards.length > 0 && cards.every((card) => learningStateOf(progressByPairId.get(card.id)) === "memorized");
    default:
      return range satisfies never;
  }
}
