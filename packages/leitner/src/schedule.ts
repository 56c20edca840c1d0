import { learningStateOf } from "./card-state.ts";
import { REVIEW_INTERVAL_DAYS_BY_BOX } from "./constants.ts";
import type { BoxNumber, CardProgress } from "./types.ts";

const MILLISECONDS_PER_DAY = 24 * 60 * 60 * 1000;

function assertValidClock(now: Date): void {
  if (Number.isNaN(now.getTime())) {
    throw new RangeError("The clock passed to the Leitner engine is an invalid Date; pass a real `new Date()`.");
  }
}

function startOfUtcDayInMilliseconds(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

/**
 * The day a card in `box` is due again after a rating at `now`: 00:00 UTC of today plus the box's interval.
 *
 * @example
 * computeDueAt(3, new Date("2026-01-01T10:00:00Z")); // "2026-01-04T00:00:00.000Z"
 */
export function computeDueAt(box: BoxNumber, now: Date): string {
  assertValidClock(now);
  const intervalDays = REVIEW_INTERVAL_DAYS_BY_BOX[box];
  return new Date(startOfUtcDayInMilliseconds(now) + intervalDays * MILLISECONDS_PER_DAY).toISOString();
}

/**
 * Whether a started card is due for review at `now`. New cards (no record) are not due: they are new.
 * A record without a due date (never scheduled) counts as due.
 *
 * @example
 * isCardDue(progress, new Date()); // true once progress.dueAt has passed
 */
export function isCardDue(progress: CardProgress | undefined, now: Date): boolean {
  assertValidClock(now);
  if (progress === undefined || learningStateOf(progress) === "new") return false;
  if (progress.dueAt === null) return true;
  return Date.parse(progress.dueAt) <= now.getTime();
}

export { assertValidClock };
