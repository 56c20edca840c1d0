import type { StudyLoadResult } from "./study-load.ts";

/** A row of `study_progress` as the checks read it. */
export type SavedProgress = { learner_key: string; pair_id: string; box: number; review_count: number };

/**
 * Compares the ratings a load run saw answered 200 with what the database holds: per learner card, the saved review
 * count must be the number answered (plus at most the ratings that were in flight when something failed), and when
 * it is exactly that, the saved box must be the last one answered. Returns one sentence per card that breaks this.
 *
 * @example
 * expect(findRatingsNotSaved(result, rows)).toEqual([]);
 */
export function findRatingsNotSaved(result: Pick<StudyLoadResult, "acknowledgedRatings" | "uncertainRatings">, saved: readonly SavedProgress[]): { problems: string[]; acknowledgedCards: number } {
  const cards = new Map<string, { learnerKey: string; pairId: string; count: number; lastBox: number }>();
  for (const rating of result.acknowledgedRatings) {
    const key = `${rating.learnerKey} ${rating.pairId}`;
    const card = cards.get(key) ?? { learnerKey: rating.learnerKey, pairId: rating.pairId, count: 0, lastBox: 0 };
    card.count += 1;
    card.lastBox = rating.box;
    cards.set(key, card);
  }
  const savedByCard = new Map(saved.map((row) => [`${row.learner_key} ${row.pair_id}`, row]));
  const problems: string[] = [];
  for (const [key, card] of cards) {
    const row = savedByCard.get(key);
    const uncertain = (result.uncertainRatings.get(card.learnerKey) ?? []).filter((pairId) => pairId === card.pairId).length;
    if (!row) problems.push(`${key}: ${card.count} ratings answered 200, none saved`);
    else if (row.review_count < card.count || row.review_count > card.count + uncertain) problems.push(`${key}: ${card.count} ratings answered 200, ${row.review_count} saved`);
    else if (row.review_count === card.count && row.box !== card.lastBox) problems.push(`${key}: box ${card.lastBox} answered, box ${row.box} saved`);
  }
  return { problems, acknowledgedCards: cards.size };
}
