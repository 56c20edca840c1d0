import { splitIntoSentencePieces } from "@atelier/subtitles";
import { PostgresAdapter, sql, type Transaction } from "kysely";
import type { DatabaseSchema } from "../database/schema.ts";
import { RequestValidationError } from "../http/http-errors.ts";
import { oneLineText } from "../http/well-formed-text.ts";

type Executor = Transaction<DatabaseSchema>;

/** The longest side a learner may type, as long as the longest card an upload makes and then some. */
export const maximumPairSideLength = 1_000;
export const lastPairMergeMessage = "This is the last pair of the group: there is no next pair to merge it with.";

export type EditablePair = { id: string; group_id: string; position: number; english: string; swedish: string; confidence: number };

export async function findEditablePair(transaction: Executor, pairId: string): Promise<EditablePair | undefined> {
  const row = await transaction
    .selectFrom("subtitle_pair")
    .select(["id", "group_id", "position", "english", "swedish", "confidence"])
    .where("id", "=", pairId)
    .executeTakeFirst();
  return row === undefined ? undefined : { ...row, position: Number(row.position), confidence: Number(row.confidence) };
}

/** A side as a learner typed it: text, trimmed, not empty and not too long; `undefined` leaves the side as it is. */
export function readPairSide(value: unknown, name: "english" | "swedish"): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new RequestValidationError(`${name} must be text.`);
  const text = oneLineText(value);
  if (text === "") throw new RequestValidationError(`The ${name === "english" ? "English" : "Swedish"} side cannot be empty.`);
  if (text.length > maximumPairSideLength) throw new RequestValidationError(`Each side can be at most ${maximumPairSideLength} characters.`);
  return text;
}

export async function updatePairSides(transaction: Executor, pair: EditablePair, sides: { english?: string; swedish?: string }): Promise<EditablePair> {
  const changes = { ...(sides.english === undefined ? {} : { english: sides.english }), ...(sides.swedish === undefined ? {} : { swedish: sides.swedish }) };
  if (Object.keys(changes).length === 0) return pair;
  // A learner who corrected the pair vouches for it.
  await transaction.updateTable("subtitle_pair").set({ ...changes, confidence: 1 }).where("id", "=", pair.id).execute();
  return { ...pair, ...changes, confidence: 1 };
}

/**
 * The records a merge or a split reads to rewrite, locked until it commits on PostgreSQL: a rating committed between
 * the read and the rewrite would otherwise be overwritten (its review lost). It waits instead, and then rates the
 * rewritten record, or finds its pair gone (404). SQLite runs one write at a time already.
 */
function lockedOnPostgres<Query extends { forUpdate(): Query }>(transaction: Executor, query: Query): Query {
  return transaction.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query;
}

/**
 * Joins a pair with the next one of its group. Every learner's progress follows: the merged pair keeps the lower
 * box of the two (a pair one learner never studied counts as the lowest), with its due date.
 */
export async function mergePairWithNext(transaction: Executor, pair: EditablePair): Promise<EditablePair> {
  const next = await transaction
    .selectFrom("subtitle_pair")
    .select(["id", "english", "swedish", "confidence"])
    .where("group_id", "=", pair.group_id)
    .where("position", ">", pair.position)
    .orderBy("position")
    .limit(sql.lit(1))
    .executeTakeFirst();
  if (next === undefined) throw new RequestValidationError(lastPairMergeMessage);
  const merged = { english: `${pair.english} ${next.english}`, swedish: `${pair.swedish} ${next.swedish}`, confidence: Math.min(pair.confidence, Number(next.confidence)) };

  const progress = await lockedOnPostgres(transaction, transaction.selectFrom("study_progress").selectAll().where("pair_id", "in", [pair.id, next.id])).execute();
  const byLearner = new Map<string, { own?: (typeof progress)[number]; next?: (typeof progress)[number] }>();
  for (const row of progress) {
    const entry = byLearner.get(row.learner_key) ?? {};
    if (row.pair_id === pair.id) entry.own = row;
    else entry.next = row;
    byLearner.set(row.learner_key, entry);
  }
  for (const [learnerKey, { own, next: nextRecord }] of byLearner) {
    if (own === undefined || nextRecord === undefined) {
      // One side never studied: the merged pair is new for this learner.
      await transaction.deleteFrom("study_progress").where("learner_key", "=", learnerKey).where("pair_id", "in", [pair.id, next.id]).execute();
      continue;
    }
    const lower = Number(nextRecord.box) < Number(own.box) ? nextRecord : own;
    await transaction
      .updateTable("study_progress")
      .set({
        box: lower.box,
        due_at: lower.due_at,
        studied_at: lower.studied_at,
        last_reviewed_at: lower.last_reviewed_at,
        review_count: Number(own.review_count) + Number(nextRecord.review_count),
        correct_count: Number(own.correct_count) + Number(nextRecord.correct_count),
      })
      .where("learner_key", "=", learnerKey)
      .where("pair_id", "=", pair.id)
      .execute();
  }
  // Progress and hidden marks of the next pair go with it.
  await transaction.deleteFrom("study_progress").where("pair_id", "=", next.id).execute();
  await transaction.deleteFrom("study_hidden_pair").where("pair_id", "=", next.id).execute();
  await transaction.deleteFrom("subtitle_pair").where("id", "=", next.id).execute();
  await transaction.updateTable("subtitle_pair").set(merged).where("id", "=", pair.id).execute();
  await transaction
    .updateTable("subtitle_group")
    .set((expression) => ({ pair_count: expression("pair_count", "-", 1) }))
    .where("id", "=", pair.group_id)
    .execute();
  return { ...pair, ...merged };
}

function sentenceCount(text: string): number {
  return splitIntoSentencePieces(text).length;
}

/** Where a pair can be split: after how many sentences of each side (from 1 to a side's count less one). */
export function readSplitPoint(body: Record<string, unknown>, pair: EditablePair): { english: number; swedish: number } {
  const point = { english: body.english_sentences, swedish: body.swedish_sentences };
  const counts = { english: sentenceCount(pair.english), swedish: sentenceCount(pair.swedish) };
  for (const side of ["english", "swedish"] as const) {
    const value = point[side];
    if (counts[side] < 2) {
      throw new RequestValidationError(`The ${side === "english" ? "English" : "Swedish"} side is one sentence: there is no sentence boundary to split it at.`);
    }
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value >= counts[side]) {
      throw new RequestValidationError(`${side}_sentences must be a whole number from 1 to ${counts[side] - 1}: how many sentences stay on the first card.`);
    }
  }
  return point as { english: number; swedish: number };
}

/**
 * Splits a pair after whole sentences of each side into two pairs, the second placed right after the first. Every
 * learner's progress is copied to the new pair, so neither part starts over.
 */
export async function splitPair(transaction: Executor, pair: EditablePair, point: { english: number; swedish: number }): Promise<[EditablePair, EditablePair]> {
  const english = splitIntoSentencePieces(pair.english);
  const swedish = splitIntoSentencePieces(pair.swedish);
  const first = { english: english.slice(0, point.english).join(" "), swedish: swedish.slice(0, point.swedish).join(" ") };
  const second = { english: english.slice(point.english).join(" "), swedish: swedish.slice(point.swedish).join(" ") };
  // Make room right after the pair: positions are unique, so the later ones move out of the way and back, one higher.
  await transaction
    .updateTable("subtitle_pair")
    .set({ position: sql<number>`0 - (position + 1)` })
    .where("group_id", "=", pair.group_id)
    .where("position", ">", pair.position)
    .execute();
  await transaction
    .updateTable("subtitle_pair")
    .set({ position: sql<number>`0 - position` })
    .where("group_id", "=", pair.group_id)
    .where("position", "<", 0)
    .execute();
  const secondPair: EditablePair = { id: crypto.randomUUID(), group_id: pair.group_id, position: pair.position + 1, ...second, confidence: pair.confidence };
  await transaction.insertInto("subtitle_pair").values(secondPair).execute();
  await transaction.updateTable("subtitle_pair").set(first).where("id", "=", pair.id).execute();
  const progress = await lockedOnPostgres(transaction, transaction.selectFrom("study_progress").selectAll().where("pair_id", "=", pair.id)).execute();
  if (progress.length > 0) await transaction.insertInto("study_progress").values(progress.map((row) => ({ ...row, pair_id: secondPair.id }))).execute();
  await transaction
    .updateTable("subtitle_group")
    .set((expression) => ({ pair_count: expression("pair_count", "+", 1) }))
    .where("id", "=", pair.group_id)
    .execute();
  return [{ ...pair, ...first }, secondPair];
}

/**
 * Hides the pair from the learner's study, if the pair still exists: answers false when the owner merged it away or
 * deleted it (or its group) since the route found it. On PostgreSQL the pair's row is held with the lock its foreign key
 * check takes (`for key share`) until the transaction ends, so a deletion that comes after waits and then removes the
 * hidden row with the pair, and one that came before leaves nothing to hide; SQLite runs one transaction at a time.
 */
export async function hidePairForLearner(transaction: Executor, learnerKey: string, pair: { id: string; group_id: string }, now: string): Promise<boolean> {
  const stillThere = transaction.selectFrom("subtitle_pair").select("id").where("id", "=", pair.id);
  const held = await (transaction.getExecutor().adapter instanceof PostgresAdapter ? stillThere.forKeyShare() : stillThere).executeTakeFirst();
  if (held === undefined) return false;
  await transaction
    .insertInto("study_hidden_pair")
    .values({ learner_key: learnerKey, pair_id: pair.id, group_id: pair.group_id, hidden_at: now })
    .onConflict((conflict) => conflict.columns(["learner_key", "pair_id"]).doNothing())
    .execute();
  return true;
}

export async function showPairForLearner(transaction: Executor, learnerKey: string, pairId: string): Promise<void> {
  await transaction.deleteFrom("study_hidden_pair").where("learner_key", "=", learnerKey).where("pair_id", "=", pairId).execute();
}

export async function listHiddenPairIds(database: Pick<Executor, "selectFrom">, learnerKey: string, groupId: string): Promise<Set<string>> {
  const rows = await database.selectFrom("study_hidden_pair").select("pair_id").where("learner_key", "=", learnerKey).where("group_id", "=", groupId).execute();
  return new Set(rows.map((row) => row.pair_id));
}
