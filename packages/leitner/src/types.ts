/** A Leitner box. Box 1 is where every card starts and returns after a wrong answer; box 5 means memorized. */
export type BoxNumber = 1 | 2 | 3 | 4 | 5;

/**
 * One learner's progress on one sentence pair. A pair without a record is "new" (not started).
 * Timestamps are ISO 8601 strings so records survive JSON, session storage and a database row unchanged.
 */
export interface CardProgress {
  pairId: string;
  box: BoxNumber;
  /** How many times the card was rated, right or wrong. */
  reviewCount: number;
  /** How many of those ratings were right. */
  correctCount: number;
  /** When the card was last marked as studied (Mark as Studied, Switch to Test Mode); null if never. */
  studiedAt: string | null;
  /** When the card was last rated; null if never. */
  lastReviewedAt: string | null;
  /** The start (00:00 UTC) of the day the card is due for review again; null if never scheduled. */
  dueAt: string | null;
}

/** Progress records of one learner, looked up by pair id. Build one with `indexProgressByPairId`. */
export type ProgressByPairId = ReadonlyMap<string, CardProgress>;

/** The least a pair must carry for the engine: its id. Pairs are passed in group order. */
export interface PairWithId {
  readonly id: string;
}

/** Where a card stands for the setup's stats cards and the Card Type radio group. */
export type CardLearningState = "new" | "in-progress" | "memorized";

/**
 * Which cards a session draws from: the setup's three Card Types, "all" (the session default) and
 * "reviewing" (the review offered on the 'memorized all' screen): every started card, due first.
 */
export type StudyRange = "new" | "in-progress" | "memorized" | "all" | "reviewing";

/** Study shows both sides and lets the learner page through; test asks and reorders by need. */
export type SessionMode = "study" | "test";

/** The session config of spec §3. Indexes are 1-based positions in the group, inclusive. */
export interface SessionConfig {
  mode: SessionMode;
  range: StudyRange;
  /** At most this many cards; left out means every card that matches. */
  cardCount?: number;
  /** First group position (1-based) to draw from; left out means 1. */
  startIndex?: number;
  /** Last group position (1-based, inclusive) to draw from; left out means the group's total. */
  endIndex?: number;
}

/** Started cards per box below 5; box 5 is `memorized`. */
export interface BoxDistribution {
  box1: number;
  box2: number;
  box3: number;
  box4: number;
}

/**
 * The numbers of the group stats (spec §3), named as on the wire. The server adds `name` and `pairs`.
 * not_started + in_progress + memorized = total; box1 + box2 + box3 + box4 = in_progress.
 */
export interface GroupStatistics {
  total: number;
  not_started: number;
  in_progress: number;
  memorized: number;
  box_distribution: BoxDistribution;
  /** Sum of every rating given to the group's cards. */
  total_reviews: number;
  /** Whole percent (0–100) of ratings that were right; 0 when there are none. */
  accuracy: number;
  /** Started cards: in progress plus memorized, the cards the "reviewing" range draws from. */
  reviewing: number;
  /** Cards in box 5; the session screen's name for memorized. */
  learned: number;
  /** Started cards whose due day has begun (dueAt at or before now, or never scheduled). */
  dueToday: number;
}

/** Who is studying: the anonymous limit applies to anonymous visitors only. */
export type LearnerKind = "anonymous" | "signed-in";
