import type { BoxNumber, CardProgress } from "@atelier/leitner";
import type { AlignmentReport } from "@atelier/subtitles";
import type { InsertQueryBuilder, Selectable, Transaction } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
import { prepareQuery, sqliteConnectionOf } from "../database/prepared-query.ts";
import type { DatabaseSchema, StudyProgressTable, SubtitleGroupTable } from "../database/schema.ts";
import { inTransactionRetryingConflicts } from "../database/transaction-conflicts.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";

export type SubtitleGroupRow = Selectable<SubtitleGroupTable>;

/** A flashcard as the engine and the wire see it. */
export type StoredPair = { id: string; english: string; swedish: string; confidence: number };

type Executor = AtelierDatabase | Transaction<DatabaseSchema>;

// 6 columns a row: 400 rows stay far below SQLite's and PostgreSQL's limits on bound parameters. On SQLite a batch runs
// on this thread, between turns of the event loop: 400 rows held it 22–28 ms (with the garbage they leave), and two
// uploads of 19,000 pairs at once kept another request waiting up to 123 ms (hostile-input bench, p99 98–112 ms a
// round); 100 rows a batch, 74–93 ms (p99 64–84). PostgreSQL's batches wait on the database, not on this thread.
const pairInsertBatchSizeOnPostgres = 400;
const pairInsertBatchSizeOnSqlite = 100;
const progressWriteBatchSize = 200;

/** No id holds U+0000, and PostgreSQL refuses it in a query (a 500): such an id names nothing. */
export function isPossibleId(id: string): boolean {
  return !id.includes("\u0000");
}

const subtitleGroupColumns = ["id", "owner_id", "name", "is_public", "pair_count", "alignment_report_json", "created_at"] as const satisfies readonly (keyof SubtitleGroupTable)[];

/**
 * Prepared once: every study call of a group reads it first. Its columns are named: PostgreSQL refuses to run a
 * prepared `select *` again once a column was added ("cached plan must not change result type"), which a rolling
 * upgrade's migration does under the processes still running the release before.
 */
const findGroupQuery = prepareQuery("subtitle-group", (database, groupId: string) => database.selectFrom("subtitle_group").select(subtitleGroupColumns).where("id", "=", groupId));

export async function findGroup(database: Executor, groupId: string): Promise<SubtitleGroupRow | undefined> {
  if (!isPossibleId(groupId)) return undefined;
  return (await findGroupQuery.execute(database, groupId)).rows[0];
}

/** Signed in: own groups first (newest first), then other users' public groups; anonymous: public groups only. */
export async function listVisibleGroups(database: AtelierDatabase, userId: string | null): Promise<SubtitleGroupRow[]> {
  const publicGroups = database.selectFrom("subtitle_group").selectAll().where("is_public", "=", 1);
  if (userId === null) {
    return publicGroups.orderBy("created_at", "desc").orderBy("id").execute();
  }
  const [own, others] = await Promise.all([
    database.selectFrom("subtitle_group").selectAll().where("owner_id", "=", userId).orderBy("created_at", "desc").orderBy("id").execute(),
    publicGroups.where("owner_id", "!=", userId).orderBy("created_at", "desc").orderBy("id").execute(),
  ]);
  return [...own, ...others];
}

/** Stores a group and its pairs in one transaction: either everything or nothing. */
export async function insertGroupWithPairs(
  database: AtelierDatabase,
  group: { id: string; ownerId: string; name: string; isPublic: boolean; report: AlignmentReport; createdAt: string },
  pairs: readonly { english: string; swedish: string; confidence: number }[],
  /** Runs first, in the same transaction: a refusal (thrown) stores nothing. */
  checkBeforeInsert?: (transaction: Executor) => Promise<void>,
): Promise<SubtitleGroupRow> {
  return database.transaction().execute(async (transaction) => {
    await checkBeforeInsert?.(transaction);
    const row: SubtitleGroupRow = {
      id: group.id,
      owner_id: group.ownerId,
      name: group.name,
      is_public: group.isPublic ? 1 : 0,
      pair_count: pairs.length,
      alignment_report_json: JSON.stringify(group.report),
      created_at: group.createdAt,
    };
    await transaction.insertInto("subtitle_group").values(row).execute();
    const pairInsertBatchSize = sqliteConnectionOf(database) === undefined ? pairInsertBatchSizeOnPostgres : pairInsertBatchSizeOnSqlite;
    for (let start = 0; start < pairs.length; start += pairInsertBatchSize) {
      const values = pairs.slice(start, start + pairInsertBatchSize).map((pair, offset) => ({
        id: crypto.randomUUID(),
        group_id: group.id,
        position: start + offset + 1,
        english: pair.english,
        swedish: pair.swedish,
        confidence: pair.confidence,
      }));
      await transaction.insertInto("subtitle_pair").values(values).execute();
      // SQLite's statements run synchronously: without a turn of the event loop between batches, the 19,000 pairs of
      // the largest upload held every other request for most of a second (hostile-input bench).
      await new Promise((resolve) => setImmediate(resolve));
    }
    return row;
  });
}

/** Whether the user is still there (an account deleted while one of its requests ran is not). */
export async function userStillExists(database: Executor, userId: string): Promise<boolean> {
  return (await database.selectFrom("identity_user").select("id").where("id", "=", userId).executeTakeFirst()) !== undefined;
}

/** How many private groups the user owns: what a plan's `privateDecks` limits. */
export async function countPrivateGroups(database: Executor, ownerId: string): Promise<number> {
  const row = await database
    .selectFrom("subtitle_group")
    .select((expression) => expression.fn.countAll<number | string>().as("count"))
    .where("owner_id", "=", ownerId)
    .where("is_public", "=", 0)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function updateGroup(database: Executor, groupId: string, changes: { name?: string; is_public?: number }): Promise<void> {
  await database.updateTable("subtitle_group").set(changes).where("id", "=", groupId).execute();
}

/**
 * The key of a group's lock (`lockForTheRestOfTransaction`), taken by every write that removes or rewrites the group's
 * pairs or several of its records at once: the owner's edits and deletions, hides, Mark as Studied, Reset and the
 * sign-in's merge of anonymous progress (decision 0076). Without it, on PostgreSQL such writes deadlocked or wrote
 * records of a pair deleted meanwhile (a foreign-key error).
 */
export function groupLockKey(groupId: string): string {
  return `subtitle-group:${groupId}`;
}

/** Deletes the group; false when another call deleted it first (both engines then answer the late caller alike). */
export async function deleteGroup(database: AtelierDatabase, groupId: string): Promise<boolean> {
  // Pairs and progress go with it (ON DELETE CASCADE); deleting them explicitly keeps that true without relying on it.
  // On PostgreSQL its row locks may meet a rating's taken in another order: the loser of that deadlock runs again.
  return inTransactionRetryingConflicts(database, async (transaction) => {
    await lockForTheRestOfTransaction(transaction, groupLockKey(groupId));
    await transaction.deleteFrom("study_progress").where("group_id", "=", groupId).execute();
    await transaction.deleteFrom("subtitle_pair").where("group_id", "=", groupId).execute();
    const deleted = await transaction.deleteFrom("subtitle_group").where("id", "=", groupId).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  });
}

/** The group's pairs in group order. */
export async function listPairs(database: Executor, groupId: string): Promise<StoredPair[]> {
  return database
    .selectFrom("subtitle_pair")
    .select(["id", "english", "swedish", "confidence"])
    .where("group_id", "=", groupId)
    .orderBy("position")
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, confidence: Number(row.confidence) })));
}

export async function findPair(database: Executor, pairId: string): Promise<{ id: string; group_id: string } | undefined> {
  if (!isPossibleId(pairId)) return undefined;
  return database.selectFrom("subtitle_pair").select(["id", "group_id"]).where("id", "=", pairId).executeTakeFirst();
}

/** Deletes the pair, its records (and by cascade its hidings); run it in the transaction that holds the group's lock. */
export async function deletePair(transaction: Executor, pair: { id: string; group_id: string }): Promise<void> {
  await transaction.deleteFrom("study_progress").where("pair_id", "=", pair.id).execute();
  const deleted = await transaction.deleteFrom("subtitle_pair").where("id", "=", pair.id).executeTakeFirst();
  if (Number(deleted.numDeletedRows) > 0) {
    await transaction
      .updateTable("subtitle_group")
      .set((expression) => ({ pair_count: expression("pair_count", "-", 1) }))
      .where("id", "=", pair.group_id)
      .execute();
  }
}

export function toCardProgress(row: Pick<Selectable<StudyProgressTable>, "pair_id" | "box" | "review_count" | "correct_count" | "studied_at" | "last_reviewed_at" | "due_at">): CardProgress {
  return {
    pairId: row.pair_id,
    box: row.box as BoxNumber,
    reviewCount: Number(row.review_count),
    correctCount: Number(row.correct_count),
    studiedAt: row.studied_at,
    lastReviewedAt: row.last_reviewed_at,
    dueAt: row.due_at,
  };
}

const progressColumns = ["pair_id", "box", "review_count", "correct_count", "studied_at", "last_reviewed_at", "due_at"] as const;

/** This learner's records for one group. */
export async function listGroupProgress(database: Executor, learnerKey: string, groupId: string): Promise<CardProgress[]> {
  const rows = await database
    .selectFrom("study_progress")
    .select(progressColumns)
    .where("learner_key", "=", learnerKey)
    .where("group_id", "=", groupId)
    .execute();
  return rows.map(toCardProgress);
}

/** Ids per statement when a request names pairs: well below SQLite's 32,766 bound values. */
const pairIdsPerStatement = 500;

function chunksOf<Item>(items: readonly Item[], size: number): Item[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));
}

/** Which of these pair ids belong to the group, looked up by key: the cost is the ids', not the group's. */
export async function pairIdsInGroup(database: Executor, groupId: string, pairIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunksOf(pairIds.filter(isPossibleId), pairIdsPerStatement)) {
    const rows = await database.selectFrom("subtitle_pair").select("id").where("group_id", "=", groupId).where("id", "in", chunk).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** This learner's records of these pairs, looked up by key. */
export async function listProgressOfPairs(database: Executor, learnerKey: string, pairIds: readonly string[]): Promise<CardProgress[]> {
  const records: CardProgress[] = [];
  for (const chunk of chunksOf(pairIds.filter(isPossibleId), pairIdsPerStatement)) {
    const rows = await database.selectFrom("study_progress").select(progressColumns).where("learner_key", "=", learnerKey).where("pair_id", "in", chunk).execute();
    records.push(...rows.map(toCardProgress));
  }
  return records;
}

/** Every record of a learner, with the group of each pair. */
export async function listLearnerProgress(database: Executor, learnerKey: string): Promise<(CardProgress & { groupId: string })[]> {
  const rows = await database.selectFrom("study_progress").select([...progressColumns, "group_id"]).where("learner_key", "=", learnerKey).execute();
  return rows.map((row) => ({ ...toCardProgress(row), groupId: row.group_id }));
}

/** The groups in which a learner has records, read from the learner's index alone. */
export async function listLearnerGroupIds(database: Executor, learnerKey: string): Promise<string[]> {
  const rows = await database.selectFrom("study_progress").select("group_id").distinct().where("learner_key", "=", learnerKey).execute();
  return rows.map((row) => row.group_id);
}

/** Memorized cards (box 5) of a learner across every group. */
export async function countMemorizedCards(database: Executor, learnerKey: string): Promise<number> {
  // Kept by triggers on study_progress (migration 0013), so it costs one row however much the learner knows.
  const row = await database.selectFrom("study_learner_memorized").select("memorized_count").where("learner_key", "=", learnerKey).executeTakeFirst();
  return Number(row?.memorized_count ?? 0);
}

/**
 * An insert of progress records that replaces a learner's record of the same pair: every column but the keys and the
 * group (a pair never changes groups, and naming it would make SQLite rewrite that index too). Every progress write
 * goes through it (`writeProgress`, the rating).
 */
export function upsertingProgress<Output>(insert: InsertQueryBuilder<DatabaseSchema, "study_progress", Output>): InsertQueryBuilder<DatabaseSchema, "study_progress", Output> {
  return insert.onConflict((conflict) =>
    conflict.columns(["learner_key", "pair_id"]).doUpdateSet((expression) => ({
      box: expression.ref("excluded.box"),
      review_count: expression.ref("excluded.review_count"),
      correct_count: expression.ref("excluded.correct_count"),
      studied_at: expression.ref("excluded.studied_at"),
      last_reviewed_at: expression.ref("excluded.last_reviewed_at"),
      due_at: expression.ref("excluded.due_at"),
      updated_at: expression.ref("excluded.updated_at"),
    })),
  );
}

/** Inserts or replaces records (an upsert: the primary key keeps one row per learner and pair). */
export async function writeProgress(database: Executor, learnerKey: string, records: readonly (CardProgress & { groupId: string })[], now: string): Promise<void> {
  for (const batch of chunksOf(records, progressWriteBatchSize)) {
    // An upsert, not delete-then-insert: two ratings of one card at once would both insert, and one would fail.
    await database
      .insertInto("study_progress")
      .values(
        batch.map((record) => ({
          learner_key: learnerKey,
          pair_id: record.pairId,
          group_id: record.groupId,
          box: record.box,
          review_count: record.reviewCount,
          correct_count: record.correctCount,
          studied_at: record.studiedAt,
          last_reviewed_at: record.lastReviewedAt,
          due_at: record.dueAt,
          updated_at: now,
        })),
      )
      .$call(upsertingProgress)
      .execute();
  }
}

export async function deleteGroupProgress(database: Executor, learnerKey: string, groupId: string): Promise<void> {
  await database.deleteFrom("study_progress").where("learner_key", "=", learnerKey).where("group_id", "=", groupId).execute();
}

export async function deleteLearnerProgress(database: Executor, learnerKey: string): Promise<void> {
  await database.deleteFrom("study_progress").where("learner_key", "=", learnerKey).execute();
}
