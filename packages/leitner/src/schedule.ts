import { learningStateOf } from "./card-state.ts";
import { REVIEW_INTERVAL_DAYS_BY_BOX } from "./constants.ts";
import type { BoxNumber, CardProgress } from "./types.ts";

const MILLISECONDS_PER_DAY = 24 * 60 * 60 * 1000;

function assertValidClock(now: Date): void {
  if (Number.isNaN(now.getTime())) {
    throw new RangeError("The clock passed to the Leitner engine is an invalid Date; pass a real `new Date()`.");
  }
}

/** A forecast covers a whole number of days, at least one. */
function assertForecastDays(days: number): void {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a whole number of 1 or more, not ${days}.`);
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
  return isStartedCardDue(progress.dueAt, now);
}

/** `isCardDue` for a started card with this due date. */
function isStartedCardDue(dueAt: string | null, now: Date): boolean {
  return dueAt === null || Date.parse(dueAt) <= now.getTime();
}

/** When a card comes back after an answer: its new box and the number of whole days until it is due. */
export interface NextReview {
  box: BoxNumber;
  daysUntilDue: number;
}

/**
 * What an answer would do to a card in `box`, for the rating buttons to say it before the learner presses one: a right
 * answer moves it up one box (at most to 5), a wrong one back to box 1; the days are the new box's interval.
 *
 * @example
 * nextReviewAfterAnswer(2, true); // { box: 3, daysUntilDue: 3 }
 */
export function nextReviewAfterAnswer(box: BoxNumber, isCorrect: boolean): NextReview {
  const nextBox: BoxNumber = isCorrect ? (Math.min(box + 1, 5) as BoxNumber) : 1;
  return { box: nextBox, daysUntilDue: REVIEW_INTERVAL_DAYS_BY_BOX[nextBox] };
}

/**
 * The delay of a review in a learner's words: "today", "tomorrow", "in 3 days".
 *
 * @example
 * describeReviewDelay(7); // "in 7 days"
 */
export function describeReviewDelay(daysUntilDue: number): string {
  if (daysUntilDue <= 0) return "today";
  if (daysUntilDue === 1) return "tomorrow";
  return `in ${daysUntilDue} days`;
}

/**
 * How many started cards fall due on each of the next `days` days (UTC days, as the schedule counts them): index 0 is
 * today and includes every card already overdue, index 1 tomorrow, and so on. New cards are never due.
 *
 * @example
 * forecastDueCards(progressRecords, new Date(), 7); // [12, 0, 4, 0, 0, 9, 0]
 */
export function forecastDueCards(progressRecords: Iterable<CardProgress>, now: Date, days = 7): number[] {
  assertValidClock(now);
  assertForecastDays(days);
  const forecast = new Array<number>(days).fill(0);
  for (const progress of progressRecords) {
    if (learningStateOf(progress) === "new") continue;
    const dueDay = dueDayOfStartedCard(progress.dueAt, now);
    if (dueDay < days) forecast[dueDay] = (forecast[dueDay] ?? 0) + 1;
  }
  return forecast;
}

/** Whole UTC days from today to the day a started card with this due date falls due: 0 when it is due or overdue. */
function dueDayOfStartedCard(dueAt: string | null, now: Date): number {
  if (dueAt === null || isStartedCardDue(dueAt, now)) return 0;
  return Math.max(0, Math.floor((Date.parse(dueAt) - startOfUtcDayInMilliseconds(now)) / MILLISECONDS_PER_DAY));
}

export { assertForecastDays, assertValidClock, dueDayOfStartedCard, isStartedCardDue, MILLISECONDS_PER_DAY, startOfUtcDayInMilliseconds };
