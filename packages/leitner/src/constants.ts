import type { BoxNumber, SessionConfig, StudyRange } from "./types.ts";

/** The first box: new cards start here and wrong answers send cards back here. */
export const FIRST_BOX = 1 satisfies BoxNumber;

/** Box 5 means memorized (spec §9). A right answer in box 5 keeps the card in box 5. */
export const MEMORIZED_BOX = 5 satisfies BoxNumber;

/** An anonymous learner with this many memorized cards or more must sign in to go on (spec §6, §9). */
export const ANONYMOUS_MEMORIZED_CARD_LIMIT = 5;

/** Card-count choices of the setup (spec §9), before they are limited to what the range holds. */
export const CARD_COUNT_OPTIONS = [5, 10, 20, 30, 50, 100, 250] as const;

/** Card counts offered on the 'memorized all' screen for the review (spec §4, §9). */
export const REVIEW_OPTIONS = [5, 10, 15, 20] as const;

/** Page sizes of the setup's Preview Cards list (spec §9). */
export const PREVIEW_PAGE_SIZES = [5, 10, 20, 50] as const;

/** The Preview Cards list's default page size (spec §9). */
export const DEFAULT_PREVIEW_PAGE_SIZE = 10;

/**
 * Days until a card is due again, by the box it is in after a rating. Due dates fall on the start of a UTC day,
 * so box 1 is due again the same day. See docs/decisions/0015-leitner-review-schedule.md.
 */
export const REVIEW_INTERVAL_DAYS_BY_BOX = {
  1: 0,
  2: 1,
  3: 3,
  4: 7,
  5: 30,
} as const satisfies Record<BoxNumber, number>;

/**
 * The session config used when the session screen receives none (spec §9): study, all cards, 20 of them.
 *
 * @example
 * const config = { ...DEFAULT_SESSION_CONFIG, ...navigationState };
 */
export const DEFAULT_SESSION_CONFIG = {
  mode: "study",
  range: "all",
  cardCount: 20,
} as const satisfies SessionConfig;

/** The setup screen's starting choices (spec §9). */
export interface StudySetupDefaults {
  range: StudyRange;
  cardCount: number;
  /** The spec's "card-count preview of 10": the Preview Cards list's page size. */
  previewPageSize: number;
}

/**
 * The setup screen's starting choices (spec §9): Card Type new, 5 cards, a preview page of 10 pairs.
 *
 * @example
 * const [range, setRange] = useState(DEFAULT_SETUP.range);
 */
export const DEFAULT_SETUP = {
  range: "new",
  cardCount: 5,
  previewPageSize: DEFAULT_PREVIEW_PAGE_SIZE,
} as const satisfies StudySetupDefaults;
