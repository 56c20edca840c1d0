import { allLoadedCardsMemorized, DEFAULT_SESSION_CONFIG, nextCardIndexAfterRating } from "@atelier/leitner";
import type { BoxNumber, CardProgress, ProgressByPairId, SessionConfig } from "@atelier/leitner";
import * as v from "valibot";
import { flashcardPairSchema, STUDY_ERROR_MESSAGES, type FlashcardPair } from "@atelier/site-api";

/** What the session screen shows. */
export type SessionStatus = "loading" | "load-error" | "empty" | "active" | "studied" | "memorized-all";
/** Side A is English, side B Swedish (spec §2.13). */
export type CardSide = "A" | "B";
export type AnonymousLimit = "reached" | "not-reached";

export interface SessionState {
  status: SessionStatus;
  config: SessionConfig;
  cards: FlashcardPair[];
  index: number;
  side: CardSide;
  anonymousLimit: AnonymousLimit;
  /** The text shown for `load-error` and `empty` (spec §8). */
  message?: string;
  /** The server's own sentence beside a `load-error` (a 429 says how long to wait, or to ask for fewer cards). */
  detail?: string;
}

export type SessionAction =
  | { type: "cards-requested"; config: SessionConfig }
  | { type: "cards-loaded"; cards: FlashcardPair[] }
  | { type: "cards-failed"; message: string; detail?: string }
  | { type: "flipped" }
  | { type: "moved"; direction: "next" | "previous" }
  | { type: "rated"; pairId: string; currentBox: BoxNumber; anonymousLimitReached: boolean }
  | { type: "anonymous-limit-reached" }
  | { type: "pair-deleted"; pairId: string }
  | { type: "pair-restored"; pair: FlashcardPair; index: number }
  | { type: "marked-studied" }
  | { type: "switched-to-test" };

export function createInitialSessionState(config: SessionConfig = DEFAULT_SESSION_CONFIG): SessionState {
  return { status: "loading", config, cards: [], index: 0, side: "A", anonymousLimit: "not-reached" };
}

/** Rating, Next and Previous are blocked for an anonymous learner at the limit (spec §6). */
export function isSessionBlocked(state: SessionState): boolean {
  return state.anonymousLimit === "reached";
}

/** The loaded cards as engine records: only the box matters to the engine's session functions. */
function progressOfLoadedCards(cards: readonly FlashcardPair[]): ProgressByPairId {
  return new Map(
    cards.map((card): [string, CardProgress] => [
      card.id,
      { pairId: card.id, box: card.current_box, reviewCount: 1, correctCount: 0, studiedAt: null, lastReviewedAt: null, dueAt: null },
    ]),
  );
}

function withCards(state: SessionState, cards: FlashcardPair[]): SessionState {
  if (cards.length === 0) return { ...state, cards, index: 0, side: "A", status: "empty", message: STUDY_ERROR_MESSAGES.noPairs };
  const status = allLoadedCardsMemorized(cards, progressOfLoadedCards(cards), state.config.range) ? "memorized-all" : "active";
  return { ...state, cards, status, message: undefined, detail: undefined };
}

/**
 * The flashcard session (spec §2.13, §4, §6) as a pure reducer: which card, which side, which screen.
 *
 * @example
 * const [state, dispatch] = useReducer(sessionReducer, config, createInitialSessionState);
 */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case "cards-requested":
      return { ...createInitialSessionState(action.config), anonymousLimit: state.anonymousLimit };
    case "cards-loaded":
      return withCards({ ...state, index: 0, side: "A" }, action.cards);
    case "cards-failed":
      return { ...state, status: "load-error", cards: [], index: 0, side: "A", message: action.message, ...(action.detail !== undefined && { detail: action.detail }) };
    case "flipped":
      if (state.status !== "active") return state;
      return { ...state, side: state.side === "A" ? "B" : "A" };
    case "moved": {
      if (state.status !== "active" || isSessionBlocked(state)) return state;
      // Next is a study-mode button (spec §2.13); Previous works in both modes.
      if (action.direction === "next" && state.config.mode !== "study") return state;
      const index = action.direction === "next" ? Math.min(state.index + 1, state.cards.length - 1) : Math.max(state.index - 1, 0);
      return index === state.index ? state : { ...state, index, side: "A" };
    }
    case "rated": {
      const ratedIndex = state.cards.findIndex((card) => card.id === action.pairId);
      if (ratedIndex === -1) return state;
      const cards = state.cards.map((card) => (card.id === action.pairId ? { ...card, current_box: action.currentBox } : card));
      const anonymousLimit = action.anonymousLimitReached ? "reached" : state.anonymousLimit;
      const index = nextCardIndexAfterRating(cards, ratedIndex, state.config.mode, progressOfLoadedCards(cards));
      return withCards({ ...state, anonymousLimit, index, side: "A" }, cards);
    }
    case "anonymous-limit-reached":
      return { ...state, anonymousLimit: "reached" };
    case "pair-deleted": {
      const deletedIndex = state.cards.findIndex((card) => card.id === action.pairId);
      if (deletedIndex === -1) return state;
      const cards = state.cards.filter((card) => card.id !== action.pairId);
      const index = Math.min(deletedIndex < state.index ? state.index - 1 : state.index, Math.max(cards.length - 1, 0));
      return withCards({ ...state, index, side: "A" }, cards);
    }
    case "pair-restored": {
      if (state.cards.some((card) => card.id === action.pair.id)) return state;
      const at = Math.min(Math.max(action.index, 0), state.cards.length);
      const cards = [...state.cards.slice(0, at), action.pair, ...state.cards.slice(at)];
      return withCards({ ...state, index: at, side: "A" }, cards);
    }
    case "marked-studied":
      return { ...state, status: "studied", side: "A" };
    case "switched-to-test":
      // Spec §4: the test is on the cards just studied, not on a new selection (which would skip past them, since
      // marking them studied takes them out of "new").
      if (state.cards.length === 0) return state;
      return withCards({ ...state, config: { ...state.config, mode: "test" }, index: 0, side: "A" }, state.cards);
    default:
      return action satisfies never;
  }
}

// Session storage: the cards under one key, written when the session's cards change (loaded, a pair deleted or
// restored), and the position under another, written at every flip, move and rating with the boxes that the ratings
// changed since. A session of a whole film (20,000 cards, about 7 MB of JSON) is then not written again at each
// action; it is read back once, on the first render of the screen.

export const SESSION_STORAGE_KEY = "flashcard";
export const SESSION_CARDS_STORAGE_KEY = "flashcard-cards";

const configSchema = v.object({
  mode: v.picklist(["study", "test"]),
  range: v.picklist(["new", "in-progress", "memorized", "all", "reviewing"]),
  cardCount: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  startIndex: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  endIndex: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

/** The session config from navigation state; the spec's default (study, all, 20) when absent or malformed. */
export function sessionConfigFromNavigationState(navigationState: unknown): SessionConfig {
  const parsed = v.safeParse(configSchema, navigationState);
  return parsed.success ? parsed.output : DEFAULT_SESSION_CONFIG;
}

const savedCardsSchema = v.object({
  /** Which write of the cards this is: the position names it, so that it is never read with another session's cards. */
  id: v.string(),
  // The pairs as the API sends them, context and confidence included, so a restored session shows them too.
  cards: v.array(flashcardPairSchema),
});

const savedPositionSchema = v.object({
  groupId: v.string(),
  /** The history entry the session belongs to: a reload keeps it, a new visit from the setup does not. */
  locationKey: v.string(),
  cardsId: v.string(),
  state: v.object({
    status: v.picklist(["active", "studied", "memorized-all"]),
    config: configSchema,
    index: v.pipe(v.number(), v.integer(), v.minValue(0)),
    side: v.picklist(["A", "B"]),
    anonymousLimit: v.picklist(["reached", "not-reached"]),
    /** The boxes of the cards rated since the cards were written: [pair id, box]. */
    boxes: v.array(v.tuple([v.string(), v.picklist([1, 2, 3, 4, 5])])),
  }),
});

export interface SavedSessionKey {
  groupId: string;
  locationKey: string;
}

/**
 * The cards last written to storage (or refused by it: too large for its quota, or storage disabled); pass it to the
 * next `saveSessionState` so that it writes only what changed, and does not try the same refused write at every step.
 */
export interface SavedSessionCards {
  id: string;
  cards: readonly FlashcardPair[];
  written: boolean;
}

type SessionStorage = Pick<Storage, "setItem" | "removeItem">;

/** The same card, but for its box: a rating changes nothing else of a card during a session. */
function isSameCardButForItsBox(saved: FlashcardPair, current: FlashcardPair): boolean {
  return (
    saved === current ||
    (saved.id === current.id && saved.english === current.english && saved.swedish === current.swedish && saved.confidence === current.confidence && saved.context === current.context)
  );
}

function removeQuietly(storage: SessionStorage, ...storageKeys: string[]): void {
  try {
    for (const storageKey of storageKeys) storage.removeItem(storageKey);
  } catch {
    // Nothing more can be done with this storage.
  }
}

function writeCards(storage: SessionStorage, cards: readonly FlashcardPair[]): SavedSessionCards {
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  try {
    storage.setItem(SESSION_CARDS_STORAGE_KEY, JSON.stringify({ id, cards }));
    return { id, cards, written: true };
  } catch {
    // A full or disabled storage only costs the restore after a reload; what is left must not be restored instead.
    removeQuietly(storage, SESSION_STORAGE_KEY, SESSION_CARDS_STORAGE_KEY);
    return { id, cards, written: false };
  }
}

/** Below this, ratings are carried by the position however small the session. */
const MOST_BOXES_CARRIED_BY_THE_POSITION = 50;

function boxesChangedSince(saved: SavedSessionCards, cards: readonly FlashcardPair[]): [string, FlashcardPair["current_box"]][] {
  return cards.filter((card, at) => card.current_box !== saved.cards[at]?.current_box).map((card) => [card.id, card.current_box]);
}

/**
 * Saves the session for a reload of its history entry, and returns the cards now in storage: pass them back with the
 * next state, so that a flip or a rating writes the position alone.
 *
 * @example
 * savedCards.current = saveSessionState(window.sessionStorage, { groupId, locationKey }, state, savedCards.current);
 */
export function saveSessionState(storage: SessionStorage, key: SavedSessionKey, state: SessionState, savedCards?: SavedSessionCards): SavedSessionCards | undefined {
  if (state.status !== "active" && state.status !== "studied" && state.status !== "memorized-all") return savedCards;
  const { status, config, cards, index, side, anonymousLimit } = state;
  const cardsStillSaved = savedCards !== undefined && savedCards.cards.length === cards.length && cards.every((card, at) => isSameCardButForItsBox(savedCards.cards[at] as FlashcardPair, card));
  let saved = cardsStillSaved ? savedCards : writeCards(storage, cards);
  if (!saved.written) return saved;
  let boxes = boxesChangedSince(saved, cards);
  // The position carries the ratings since the cards were written; past an eighth of the session, the cards are written
  // again with their boxes, so that the position stays small and the rewrite is rare (once every 2,500 ratings of 20,000).
  if (boxes.length > Math.max(MOST_BOXES_CARRIED_BY_THE_POSITION, cards.length / 8)) {
    saved = writeCards(storage, cards);
    if (!saved.written) return saved;
    boxes = [];
  }
  try {
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ ...key, cardsId: saved.id, state: { status, config, index, side, anonymousLimit, boxes } }));
  } catch {
    // As for the cards: only the restore after a reload is lost; an older position must not be restored instead.
    removeQuietly(storage, SESSION_STORAGE_KEY);
  }
  return saved;
}

function readJson(storage: Pick<Storage, "getItem">, storageKey: string): unknown {
  try {
    const raw = storage.getItem(storageKey);
    return raw === null ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** The saved state for this group and history entry, if any and well-formed. */
export function readSavedSessionState(storage: Pick<Storage, "getItem">, key: SavedSessionKey): SessionState | undefined {
  const position = v.safeParse(savedPositionSchema, readJson(storage, SESSION_STORAGE_KEY));
  if (!position.success || position.output.groupId !== key.groupId || position.output.locationKey !== key.locationKey) return undefined;
  const savedCards = v.safeParse(savedCardsSchema, readJson(storage, SESSION_CARDS_STORAGE_KEY));
  if (!savedCards.success || savedCards.output.id !== position.output.cardsId) return undefined;
  const { boxes, ...saved } = position.output.state;
  const cards = savedCards.output.cards;
  if (cards.length === 0 || saved.index >= cards.length) return undefined;
  const boxByPairId = new Map(boxes);
  return { ...saved, cards: cards.map((card) => ({ ...card, current_box: boxByPairId.get(card.id) ?? card.current_box })) };
}

/** One answer of this session, for the end-of-session summary. */
export interface SessionAnswer {
  pairId: string;
  isCorrect: boolean;
  fromBox: BoxNumber;
  toBox: BoxNumber;
}

export interface SessionSummary {
  answered: number;
  right: number;
  again: number;
  movedUp: number;
  movedDown: number;
  /** Whole days until the earliest of the answered cards is due again (0: today). */
  nextDueInDays: number | undefined;
}

/**
 * What a session came to: the last answer of each card counts once (a card answered again replaces its earlier answer).
 *
 * @example
 * summarizeSession(answers, (box) => REVIEW_INTERVAL_DAYS_BY_BOX[box]);
 */
export function summarizeSession(answers: readonly SessionAnswer[], daysUntilDueOf: (box: BoxNumber) => number): SessionSummary {
  const lastAnswerByPair = new Map<string, SessionAnswer>();
  const firstBoxByPair = new Map<string, BoxNumber>();
  for (const answer of answers) {
    if (!firstBoxByPair.has(answer.pairId)) firstBoxByPair.set(answer.pairId, answer.fromBox);
    lastAnswerByPair.set(answer.pairId, answer);
  }
  const last = [...lastAnswerByPair.values()];
  const days = last.map((answer) => daysUntilDueOf(answer.toBox));
  return {
    answered: last.length,
    right: last.filter((answer) => answer.isCorrect).length,
    again: last.filter((answer) => !answer.isCorrect).length,
    movedUp: last.filter((answer) => answer.toBox > (firstBoxByPair.get(answer.pairId) ?? answer.fromBox)).length,
    movedDown: last.filter((answer) => answer.toBox < (firstBoxByPair.get(answer.pairId) ?? answer.fromBox)).length,
    nextDueInDays: days.length > 0 ? Math.min(...days) : undefined,
  };
}
