import { isCardInStudyRange, currentBoxOf, learningStateOf } from "./card-state.ts";
import { CARD_COUNT_OPTIONS } from "./constants.ts";
import { assertValidClock, isCardDue } from "./schedule.ts";
import type { CardProgress, PairWithId, ProgressByPairId, SessionConfig, SessionMode, StudyRange } from "./types.ts";

function assertWholeNumberAtLeastOne(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(
      `${name} must be a whole number of 1 or more, got ${String(value)}; parse and validate the query before calling selectSessionCards.`,
    );
  }
}

/** 0 for a card that needs practice now (new, or due), 1 for one that can wait. */
function urgencyOf(progress: CardProgress | undefined, now: Date): 0 | 1 {
  if (learningStateOf(progress) === "new") return 0;
  return isCardDue(progress, now) ? 0 : 1;
}

/**
 * Picks a session's cards (spec §2.13, §3, §9), in this order:
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
  assertValidClock(now);
  assertWholeNumberAtLeastOne("cardCount", config.cardCount);
  assertWholeNumberAtLeastOne("startIndex", config.startIndex);
  assertWholeNumberAtLeastOne("endIndex", config.endIndex);

  const lastPosition = Math.min(config.endIndex ?? pairs.length, pairs.length);
  const firstPosition = Math.min(config.startIndex ?? 1, lastPosition);
  const window = pairs.slice(Math.max(firstPosition, 1) - 1, lastPosition);

  const inRange = window
    .map((pair, positionInWindow) => ({ pair, positionInWindow, progress: progressByPairId.get(pair.id) }))
    .filter((candidate) => isCardInStudyRange(candidate.progress, config.range));

  const ordered = orderForMode(inRange, config.mode, now);
  const selected = config.cardCount === undefined ? ordered : ordered.slice(0, config.cardCount);
  return selected.map((candidate) => candidate.pair);
}

interface Candidate<Pair> {
  pair: Pair;
  positionInWindow: number;
  progress: CardProgress | undefined;
}

function orderForMode<Pair>(candidates: Candidate<Pair>[], mode: SessionMode, now: Date): Candidate<Pair>[] {
  switch (mode) {
    case "study":
      return candidates;
    case "test":
      return [...candidates].sort(
        (first, second) =>
          urgencyOf(first.progress, now) - urgencyOf(second.progress, now) ||
          currentBoxOf(first.progress) - currentBoxOf(second.progress) ||
          first.positionInWindow - second.positionInWindow,
      );
    default:
      return mode satisfies never;
  }
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
