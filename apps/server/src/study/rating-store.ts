import { FIRST_BOX, MEMORIZED_BOX, rateCard, type BoxNumber, type CardProgress } from "@atelier/leitner";
import type { Transaction } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
import type pg from "pg";
import { executeInOneRoundTrip, type LiteralArray, type SessionPreparedStatement } from "../database/postgres-one-round-trip.ts";
import { postgresPoolOf } from "../database/postgres-pool.ts";
import { prepareQuery, type HeldSqliteTransaction } from "../database/prepared-query.ts";
import { runInSharedSqliteTransaction } from "../database/sqlite-group-commit.ts";
import { batchPerTurn, FailedCall } from "../database/turn-batch.ts";
import type { DatabaseSchema } from "../database/schema.ts";
import { retryTransactionConflicts } from "../database/transaction-conflicts.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";
import { isPossibleId, toCardProgress, upsertingProgress } from "./study-store.ts";

type Executor = AtelierDatabase | Transaction<DatabaseSchema>;

/** One answer to rate: who answers (their key, their user id when signed in, whether the anonymous limit applies). */
export type RatingRequest = {
  learnerKey: string;
  /** The signed-in user, who may rate the cards of their own private groups too. */
  userId: string | null;
  /** The memorized count from which the learner may no longer rate (anonymous learners), or null. */
  memorizedLimit: number | null;
  pairId: string;
  isCorrect: boolean;
  now: Date;
};

export type RatingOutcome =
  | { status: "not-found" }
  | { status: "limit-reached" }
  | { status: "rated"; pair: { id: string; group_id: string }; before: CardProgress | undefined; saved: CardProgress; memorized: number };

/** The learner's lock: one rating (or other change of their records) at a time, in every process. */
export function progressLockKey(learnerKey: string): string {
  return `study-progress:${learnerKey}`;
}

const boxes: readonly BoxNumber[] = [1, 2, 3, 4, 5];

/**
 * `rateCard` as a table for one answer at one moment: the box and due date it gives a record of each box, and what
 * it adds to the counts. A record's other fields (when it was studied) stay. The single statement of a rating on
 * PostgreSQL applies this table, so the engine still decides; `rating-store.test.ts` holds that applying it equals
 * `rateCard` on any record, or on none (a new card counts as a record of the first box with no answers).
 */
export function describeRating(isCorrect: boolean, now: Date) {
  const fromEmptyRecordIn = (box: BoxNumber) => rateCard({ pairId: "", box, reviewCount: 0, correctCount: 0, studiedAt: null, lastReviewedAt: null, dueAt: null }, "", isCorrect, now);
  const rated = boxes.map(fromEmptyRecordIn);
  const first = rated[0] as CardProgress;
  return {
    boxAfter: rated.map((record) => record.box),
    dueAtAfter: rated.map((record) => record.dueAt),
    reviewIncrement: first.reviewCount,
    correctIncrement: first.correctCount,
    lastReviewedAt: first.lastReviewedAt,
  };
}

const readRatingTargetQuery = prepareQuery("rating-target", (database, learnerKey: string, pairId: string) =>
  database
    .selectFrom("subtitle_pair as pair")
    .innerJoin("subtitle_group as pair_group", "pair_group.id", "pair.group_id")
    .leftJoin("study_progress as progress", (join) => join.onRef("progress.pair_id", "=", "pair.id").on("progress.learner_key", "=", learnerKey))
    .select(["pair.id", "pair.group_id", "pair_group.is_public", "pair_group.owner_id", "progress.pair_id as progress_pair_id", "progress.box", "progress.review_count", "progress.correct_count", "progress.studied_at", "progress.last_reviewed_at", "progress.due_at"])
    .select((expression) => expression.selectFrom("study_learner_memorized as memorized").select("memorized.memorized_count").where("memorized.learner_key", "=", learnerKey).as("memorized"))
    .where("pair.id", "=", pairId),
);

const writeProgressQuery = prepareQuery(
  "write-progress",
  (database, learnerKey: string, pairId: string, groupId: string, box: number, reviewCount: number, correctCount: number, studiedAt: string | null, lastReviewedAt: string | null, dueAt: string | null, updatedAt: string) =>
    database
      .insertInto("study_progress")
      .values({ learner_key: learnerKey, pair_id: pairId, group_id: groupId, box, review_count: reviewCount, correct_count: correctCount, studied_at: studiedAt, last_reviewed_at: lastReviewedAt, due_at: dueAt, updated_at: updatedAt })
      .$call(upsertingProgress),
);

type RatingTargetRow = Awaited<ReturnType<typeof readRatingTargetQuery.execute>>["rows"][number];

/** What the engine makes of the read: nothing to write (not found, limit reached), or the record to write. */
function rateTarget(row: RatingTargetRow | undefined, request: RatingRequest): RatingOutcome {
  if (row === undefined || !(Number(row.is_public) === 1 || row.owner_id === request.userId)) return { status: "not-found" };
  const memorizedBefore = Number(row.memorized ?? 0);
  if (request.memorizedLimit !== null && memorizedBefore >= request.memorizedLimit) return { status: "limit-reached" };
  const before =
    row.progress_pair_id === null
      ? undefined
      : toCardProgress({ pair_id: row.progress_pair_id, box: Number(row.box), review_count: Number(row.review_count), correct_count: Number(row.correct_count), studied_at: row.studied_at, last_reviewed_at: row.last_reviewed_at, due_at: row.due_at });
  const saved = rateCard(before, row.id, request.isCorrect, request.now);
  return { status: "rated", pair: { id: row.id, group_id: row.group_id }, before, saved, memorized: memorizedMoved(memorizedBefore, before, saved) };
}

function writeValuesOf(request: RatingRequest, outcome: Extract<RatingOutcome, { status: "rated" }>) {
  const { saved, pair } = outcome;
  return [request.learnerKey, pair.id, pair.group_id, saved.box, saved.reviewCount, saved.correctCount, saved.studiedAt, saved.lastReviewedAt, saved.dueAt, request.now.toISOString()] as const;
}

/**
 * Read what the rating needs in one statement, rate, write in another, in one transaction under the learner's lock.
 * On SQLite the read, the rating and the write run at once, in the transaction shared with the other writes of this
 * turn of the event loop (nothing else runs meanwhile, so no lock is needed).
 */
async function rateInTransaction(database: Executor, request: RatingRequest): Promise<RatingOutcome> {
  const shared = runInSharedSqliteTransaction(database, (transaction) => rateCardWithin(transaction, request));
  if (shared !== undefined) return shared;
  return database.transaction().execute(async (transaction) => {
    await lockForTheRestOfTransaction(transaction, progressLockKey(request.learnerKey));
    const outcome = rateTarget((await readRatingTargetQuery.execute(transaction, request.learnerKey, request.pairId)).rows[0], request);
    if (outcome.status === "rated") await writeProgressQuery.execute(transaction, ...writeValuesOf(request, outcome));
    return outcome;
  });
}

/**
 * A rating as one step of a SQLite transaction the caller holds (`runInSharedSqliteTransaction`): the read, the
 * rating and the write, synchronously. For a caller that writes something else in the same commit (the node front's
 * rating counts the call in the rate limit there).
 *
 * @example
 * const outcome = await runInSharedSqliteTransaction(database, (transaction) => rateCardWithin(transaction, request));
 */
export function rateCardWithin(transaction: HeldSqliteTransaction, request: RatingRequest): RatingOutcome {
  if (!isPossibleId(request.pairId)) return { status: "not-found" };
  const outcome = rateTarget(transaction.run(readRatingTargetQuery, request.learnerKey, request.pairId).rows[0], request);
  if (outcome.status === "rated") transaction.run(writeProgressQuery, ...writeValuesOf(request, outcome));
  return outcome;
}

/** The learner's memorized count after a rating: under the lock nothing else changed it, so it moves with this card alone. */
function memorizedMoved(memorizedBefore: number, before: CardProgress | undefined, saved: CardProgress): number {
  return memorizedBefore - (before?.box === MEMORIZED_BOX ? 1 : 0) + (saved.box === MEMORIZED_BOX ? 1 : 0);
}

const progressColumns = ["box", "review_count", "correct_count", "studied_at", "last_reviewed_at", "due_at"] as const;

/** The statement's input, one array of each per batch, one element per rating (`postgresValuesOf`). */
const ratingInputColumns = [
  ["learner_key", "text"],
  ["pair_id", "text"],
  ["user_id", "text"],
  ["memorized_limit", "integer"],
  ...boxes.map((box) => [`box_after_${box}`, "integer"] as const),
  ...boxes.map((box) => [`due_at_after_${box}`, "text"] as const),
  ["review_increment", "integer"],
  ["correct_increment", "integer"],
  ["last_reviewed_at", "text"],
  ["rated_at", "text"],
  ["scope", "text"],
  ["window_start", "text"],
  ["maximum_requests", "integer"],
  ["token_hash", "text"],
] as const;

const caseOfBox = (column: "box_after" | "due_at_after") => `CASE coalesce(rated.before_box, ${FIRST_BOX}) ${boxes.map((box) => `WHEN ${box} THEN rated.${column}_${box}`).join(" ")} END`;
const countedCall = "(signed.holds AND signed.scope IS NOT NULL)";

/**
 * Ratings on PostgreSQL, one statement for a batch of them, after their learners' locks (decision 0070). For each, in
 * the order given: the user a browser session's token signs in (hashed; the session read as
 * `sessions.findSignedInUserId` reads it: a browser session, not expired at the rating's moment, of an active account),
 * and whether that is the rating's user (always when no token is given); the call counted in the study calls' limit
 * when asked (scope, window, limit), its count being the window's count as if the batch's calls were counted one after
 * another; the pair and whether the learner may see it, their record, their memorized count when the statement
 * starts, and the rated record written (when the session holds, the pair is visible and both limits allow) and
 * returned. A session that does not hold counts and writes nothing. One statement reads every record before it
 * writes any, so a batch holds a learner's pair once at most and, for a learner under a memorized limit, one rating
 * at most (`statementsOfBatch`). Each rating's rows are looked up by key in a lateral subquery with a limit, which the
 * planner never turns into a join of whole tables: the plan is generic, made for a guess of 10 ratings. The record is
 * read locked (`FOR NO KEY UPDATE`): a merge or split of its pair that rewrites it from what it read (locked too) is
 * waited for, and the rating then reads what that wrote; unlocked, the rating's write, computed from the record as it
 * was, undid the merge's sum of the two pairs' reviews.
 */
const rateBatchOnPostgres: SessionPreparedStatement = {
  name: "atelier_rate_cards_2",
  parameterTypes: ratingInputColumns.map(([, type]) => `${type}[]`),
  sql: `WITH input AS (
      SELECT * FROM unnest(${ratingInputColumns.map(([, type], index) => `$${index + 1}::${type}[]`).join(", ")})
        WITH ORDINALITY AS input (${ratingInputColumns.map(([column]) => column).join(", ")}, ordinal)
    ), signed AS (
      SELECT input.*, signed_in.user_id AS signed_in_user_id, (input.token_hash IS NULL OR coalesce(signed_in.user_id = input.user_id, FALSE)) AS holds
      FROM input LEFT JOIN LATERAL (
        SELECT session.user_id FROM identity_session AS session JOIN identity_user AS account ON account.id = session.user_id
        WHERE session.token_hash = input.token_hash AND session.client = 'browser' AND session.expires_at > input.rated_at COLLATE "C" AND account.is_active = 1
        LIMIT 1
      ) AS signed_in ON TRUE
    ), numbered AS (
      SELECT signed.*, ${countedCall} AS counted,
        row_number() OVER (PARTITION BY signed.learner_key, signed.scope, signed.window_start, ${countedCall} ORDER BY signed.ordinal) AS call_number,
        count(*) OVER (PARTITION BY signed.learner_key, signed.scope, signed.window_start, ${countedCall}) AS calls_in_window
      FROM signed
    ), call_count AS (
      INSERT INTO rate_limit_window (scope, client_key, window_start, request_count)
      SELECT scope, learner_key, window_start, count(*) FROM numbered WHERE counted GROUP BY scope, learner_key, window_start
      ORDER BY learner_key COLLATE "C", window_start
      ON CONFLICT (scope, client_key, window_start) DO UPDATE SET request_count = rate_limit_window.request_count + excluded.request_count
      RETURNING scope, client_key, window_start, request_count
    ), rated AS (
      SELECT numbered.*, target.id AS target_id, target.group_id, target.visible,
        ${progressColumns.map((column) => `before.${column} AS before_${column}`).join(", ")},
        coalesce(memorized.memorized_count, 0) AS memorized, calls.request_count - numbered.calls_in_window + numbered.call_number AS call_count
      FROM numbered
      LEFT JOIN LATERAL (
        SELECT pair.id, pair.group_id, (pair_group.is_public = 1 OR pair_group.owner_id = numbered.user_id) AS visible
        FROM subtitle_pair AS pair JOIN subtitle_group AS pair_group ON pair_group.id = pair.group_id WHERE pair.id = numbered.pair_id LIMIT 1
      ) AS target ON TRUE
      LEFT JOIN LATERAL (
        SELECT ${progressColumns.join(", ")} FROM study_progress WHERE learner_key = numbered.learner_key AND pair_id = numbered.pair_id LIMIT 1
        FOR NO KEY UPDATE
      ) AS before ON TRUE
      LEFT JOIN LATERAL (SELECT memorized_count FROM study_learner_memorized WHERE learner_key = numbered.learner_key LIMIT 1) AS memorized ON TRUE
      LEFT JOIN call_count AS calls ON numbered.counted AND calls.scope = numbered.scope AND calls.client_key = numbered.learner_key AND calls.window_start = numbered.window_start
    ), saved AS (
      INSERT INTO study_progress (learner_key, pair_id, group_id, ${progressColumns.join(", ")}, updated_at)
      SELECT rated.learner_key, rated.target_id, rated.group_id, ${caseOfBox("box_after")}, coalesce(rated.before_review_count, 0) + rated.review_increment,
        coalesce(rated.before_correct_count, 0) + rated.correct_increment, rated.before_studied_at, rated.last_reviewed_at, ${caseOfBox("due_at_after")}, rated.rated_at
      FROM rated
      WHERE rated.holds AND rated.visible AND (rated.memorized_limit IS NULL OR rated.memorized < rated.memorized_limit)
        AND (NOT rated.counted OR rated.call_count <= rated.maximum_requests)
      ON CONFLICT (learner_key, pair_id) DO UPDATE SET ${progressColumns.map((column) => `${column} = excluded.${column}`).join(", ")}, updated_at = excluded.updated_at
      RETURNING learner_key, pair_id, ${progressColumns.join(", ")}
    )
    SELECT rated.target_id AS id, rated.group_id, rated.visible, rated.memorized, rated.call_count, rated.signed_in_user_id, rated.holds AS session_holds,
      ${progressColumns.map((column) => `rated.before_${column}`).join(", ")},
      ${progressColumns.map((column) => `saved.${column} AS saved_${column}`).join(", ")}
    FROM rated LEFT JOIN saved ON saved.learner_key = rated.learner_key AND saved.pair_id = rated.target_id
    ORDER BY rated.ordinal`,
};

type PostgresRatingRow = { id: string | null; group_id: string | null; visible: boolean | null; memorized: string | number; call_count: string | number | null; signed_in_user_id: string | null; session_holds: boolean } & {
  [Column in (typeof progressColumns)[number] as `before_${Column}` | `saved_${Column}`]: string | number | null;
};

function progressFromColumns(pairId: string, row: PostgresRatingRow, prefix: "before_" | "saved_"): CardProgress | undefined {
  if (row[`${prefix}box`] === null) return undefined;
  return toCardProgress({
    pair_id: pairId,
    box: Number(row[`${prefix}box`]),
    review_count: Number(row[`${prefix}review_count`]),
    correct_count: Number(row[`${prefix}correct_count`]),
    studied_at: row[`${prefix}studied_at`] as string | null,
    last_reviewed_at: row[`${prefix}last_reviewed_at`] as string | null,
    due_at: row[`${prefix}due_at`] as string | null,
  });
}

/** The study call's window a rating counts itself in, in its own statement: see `countAndRateCardOfLearner`. */
export type CallWindow = { scope: string; windowStart: string; maximumRequests: number };

/**
 * A rating of the batch, with the window to count it in when its caller has not counted it, and the hash of the
 * browser session's token that must sign its user in when its caller has not read the session.
 */
type PostgresRating = { request: RatingRequest; call: CallWindow | null; sessionTokenHash: string | null };

/**
 * A rating's answer: the session's user and whether it is the rating's (when a token was given); the window's new
 * count when it was counted (`null` otherwise), and what was rated (`null` over the calls' limit or when the session
 * did not hold: nothing was counted or written then).
 */
type PostgresRatingAnswer = { signedInUserId: string | null; sessionHolds: boolean; requestCount: number | null; outcome: RatingOutcome | null };

/** A rating's elements of the statement's arrays, in `ratingInputColumns`' order (the engine's table included). */
function postgresValuesOf({ request, call, sessionTokenHash }: PostgresRating): (string | number | null)[] {
  const rating = describeRating(request.isCorrect, request.now);
  return [
    request.learnerKey,
    request.pairId,
    request.userId,
    request.memorizedLimit,
    ...rating.boxAfter,
    ...rating.dueAtAfter,
    rating.reviewIncrement,
    rating.correctIncrement,
    rating.lastReviewedAt,
    request.now.toISOString(),
    call?.scope ?? null,
    call?.windowStart ?? null,
    call?.maximumRequests ?? null,
    sessionTokenHash,
  ];
}

/** The statement's values for these ratings: one typed array per input column. */
function postgresArraysOf(ratings: readonly PostgresRating[]): LiteralArray[] {
  const rows = ratings.map(postgresValuesOf);
  return ratingInputColumns.map(([, elementType], column) => ({ elementType, elements: rows.map((row) => row[column] ?? null) }));
}

function answerOfPostgresRow(row: PostgresRatingRow | undefined, call: CallWindow | null): PostgresRatingAnswer {
  if (row === undefined) throw new Error("The rating's statement returned no row.");
  const session = { signedInUserId: row.signed_in_user_id, sessionHolds: row.session_holds };
  if (!row.session_holds) return { ...session, requestCount: null, outcome: null };
  const requestCount = row.call_count === null ? null : Number(row.call_count);
  if (call !== null && requestCount === null) throw new Error("The rating's count of the study call returned no row.");
  if (call !== null && requestCount !== null && requestCount > call.maximumRequests) return { ...session, requestCount, outcome: null };
  return { ...session, requestCount, outcome: outcomeOfPostgresRow(row) };
}

function outcomeOfPostgresRow(row: PostgresRatingRow | undefined): RatingOutcome {
  if (row === undefined || row.id === null || row.group_id === null || row.visible !== true) return { status: "not-found" };
  const saved = progressFromColumns(row.id, row, "saved_");
  if (saved === undefined) return { status: "limit-reached" };
  const before = progressFromColumns(row.id, row, "before_");
  return { status: "rated", pair: { id: row.id, group_id: row.group_id }, before, saved, memorized: memorizedMoved(Number(row.memorized), before, saved) };
}

/**
 * The batch's ratings in the order of their learners' keys, each learner's in request order: a rating that counts its
 * call locks its window's row, and the study calls' counts lock theirs in that order too (`fixed-window-rate-limiter`),
 * so that the two never wait for each other. The keys are ASCII, where this order is PostgreSQL's `COLLATE "C"`.
 */
function inLearnerOrder(ratings: readonly PostgresRating[]): number[] {
  const keyOf = (index: number) => (ratings[index] as PostgresRating).request.learnerKey;
  return ratings.map((_, index) => index).sort((left, right) => (keyOf(left) < keyOf(right) ? -1 : keyOf(left) > keyOf(right) ? 1 : left - right));
}

/**
 * The batch's ratings (in learner order) as statements run one after another: each learner's ratings in request order,
 * each in the first statement after that of the learner's rating before it that holds neither the same pair of the
 * learner (a statement reads every record before it writes) nor, for a learner under a memorized limit, another
 * rating of theirs (their count is read when the statement starts). A learner who rates different cards lands in one
 * statement; the same card twice, in two.
 */
function statementsOfBatch(ordered: readonly PostgresRating[]): PostgresRating[][] {
  const statements: PostgresRating[][] = [];
  let learnerKey: string | null = null;
  let placesTaken = new Set<string>();
  let statementIndex = 0;
  for (const rating of ordered) {
    const { request } = rating;
    if (request.learnerKey !== learnerKey) {
      learnerKey = request.learnerKey;
      placesTaken = new Set();
      statementIndex = 0;
    }
    // Under a memorized limit every rating of the learner takes the same place, so each goes in a statement of its own.
    const place = request.memorizedLimit === null ? request.pairId : "";
    while (placesTaken.has(`${statementIndex} ${place}`)) statementIndex += 1;
    placesTaken.add(`${statementIndex} ${place}`);
    (statements[statementIndex] ??= []).push(rating);
  }
  return statements;
}

/**
 * The ratings of one turn of the event loop under their learners' locks, in one round trip, committed without waiting
 * for the disk (decision 0036). Each learner's in request order, each sees the ones before it, as if rated one after
 * another: a rating's memorized count is the one its statement read, moved by the learner's ratings before it in the
 * same statement. When the batch fails (a pair deleted meanwhile), each is tried alone, so that only its own answer
 * fails.
 */
async function rateBatchInOneRoundTrip(pool: pg.Pool, ratings: readonly PostgresRating[]): Promise<(PostgresRatingAnswer | FailedCall)[]> {
  const rateAll = async (batch: readonly PostgresRating[]) => {
    const order = inLearnerOrder(batch);
    const ordered = order.map((index) => batch[index] as PostgresRating);
    const statements = statementsOfBatch(ordered);
    const results = await executeInOneRoundTrip<PostgresRatingRow>(pool, rateBatchOnPostgres, statements.map(postgresArraysOf), {
      lockKeys: ordered.map(({ request }) => progressLockKey(request.learnerKey)),
      settings: {
        // Committed without waiting for the disk (decision 0036): the locks are released at commit, so the learner's
        // next rating would otherwise wait for an fsync.
        synchronous_commit: "off",
        // One plan for any batch, made once per connection (decision 0070): planned for each batch's length, the
        // statement took 1.4 ms to plan and 0.5 ms to run for one rating.
        plan_cache_mode: "force_generic_plan",
        // And a plan that looks each rating up by key, even when it is made while the tables are small (a new
        // database), where reading a whole table looks cheaper: that plan would stay as the table grows.
        enable_seqscan: "off",
      },
    });
    const answersByRating = new Map<PostgresRating, PostgresRatingAnswer>();
    statements.forEach((statement, statementIndex) => {
      // How far the statement's ratings before this one moved each learner's memorized count, which it read once.
      const memorizedMoves = new Map<string, number>();
      statement.forEach((rating, position) => {
        const row = results[statementIndex]?.[position];
        const read = Number(row?.memorized ?? 0);
        const answer = answerOfPostgresRow(row && { ...row, memorized: read + (memorizedMoves.get(rating.request.learnerKey) ?? 0) }, rating.call);
        if (answer.outcome?.status === "rated") memorizedMoves.set(rating.request.learnerKey, answer.outcome.memorized - read);
        answersByRating.set(rating, answer);
      });
    });
    return batch.map((rating) => answersByRating.get(rating) as PostgresRatingAnswer);
  };
  // A pair (or its group) deleted after the statement read it and before its record's foreign key was checked fails
  // the statement; run again, the statement reads that the pair is gone and answers not found. A statement chosen as a
  // deadlock's victim (its records and pairs locked in request order, an owner's deletion of a film's in the table's)
  // wrote nothing either, and runs again (decision 0081).
  const rateAlone = (rating: PostgresRating) =>
    retryTransactionConflicts(async () => {
      try {
        return (await rateAll([rating]))[0] as PostgresRatingAnswer;
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        return (await rateAll([rating]))[0] as PostgresRatingAnswer;
      }
    });
  if (ratings.length === 1) return [await rateAlone(ratings[0] as PostgresRating)];
  try {
    return await rateAll(ratings);
  } catch {
    // Each alone, so that only its own answer fails; a learner's one after another, in request order, as in the batch.
    const alone = await Promise.allSettled(eachLearnerInOrder(ratings, rateAlone));
    return alone.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : new FailedCall(outcome.reason)));
  }
}

/** `run` of each rating, the ratings of one learner one after another in the order given, different learners' at once. */
function eachLearnerInOrder<Result>(ratings: readonly PostgresRating[], run: (rating: PostgresRating) => Promise<Result>): Promise<Result>[] {
  const learnersLast = new Map<string, Promise<unknown>>();
  return ratings.map((rating) => {
    const key = rating.request.learnerKey;
    const result = (learnersLast.get(key) ?? Promise.resolve()).then(() => run(rating));
    learnersLast.set(key, result.catch(() => undefined));
    return result;
  });
}

/** PostgreSQL's `foreign_key_violation`. */
function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23503";
}

const ratingBatchers = new WeakMap<pg.Pool, (rating: PostgresRating) => Promise<PostgresRatingAnswer>>();

function ratingBatcherOf(pool: pg.Pool): (rating: PostgresRating) => Promise<PostgresRatingAnswer> {
  let batcher = ratingBatchers.get(pool);
  if (batcher === undefined) {
    batcher = batchPerTurn((ratings: readonly PostgresRating[]) => rateBatchInOneRoundTrip(pool, ratings), { maximumBatchSize: 50 });
    ratingBatchers.set(pool, batcher);
  }
  return batcher;
}

/**
 * Rates one card for one learner, one rating of a learner at a time in every process (the limit's count and the box's
 * read-modify-write would otherwise interleave: 30 ratings at once memorized 9–11 cards on PostgreSQL, and a rating
 * could be lost). Not found: no such pair, or one the learner may not see; limit reached: nothing was written.
 *
 * @example
 * const outcome = await rateCardOfLearner(database, { learnerKey: "user:…", userId: "…", memorizedLimit: null, pairId, isCorrect: true, now: new Date() });
 */
export async function rateCardOfLearner(database: Executor, request: RatingRequest): Promise<RatingOutcome> {
  if (!isPossibleId(request.pairId)) return { status: "not-found" };
  const pool = postgresPoolOf(database);
  if (pool === undefined) return rateInTransaction(database, request);
  return (await ratingBatcherOf(pool)({ request, call: null, sessionTokenHash: null })).outcome as RatingOutcome;
}

/**
 * What `countAndRateCardOfLearner` answers: the call counted (the window's new count) and what was rated, `null` when
 * the count is over the limit; or, for a rating made on the session's guessed user, that the session signs another
 * user in or none (`signedInUserId`), and nothing was counted or written.
 */
export type CountedRating = { status: "counted"; requestCount: number; outcome: RatingOutcome | null } | { status: "not-signed-in-as-rater"; signedInUserId: string | null };

/**
 * On PostgreSQL, a rating that counts its own study call in the window `call`, in the rating's statement: one round
 * trip fewer than counting first (decision 0053). With `sessionTokenHash`, the statement also reads the browser
 * session of that token, and counts and rates only when it signs in the rating's user (`request.userId`): a caller
 * that guessed the session's user reads the session and rates in one round trip (decision 0054). Nothing is written
 * over the limit; when the rating fails, its count is rolled back with it. `undefined` on SQLite, where the caller
 * counts in the turn's shared commit (`registerRequestWithin`).
 *
 * @example
 * const call = studyCallLimiter.countedInOwnStatement();
 * const counted = await countAndRateCardOfLearner(database, request, call, { sessionTokenHash });
 * if (counted?.status === "counted") decision = await call.decide(counted.requestCount);
 */
export function countAndRateCardOfLearner(database: Executor, request: RatingRequest, call: CallWindow, options: { sessionTokenHash?: string } = {}): Promise<CountedRating> | undefined {
  const pool = postgresPoolOf(database);
  if (pool === undefined) return undefined;
  const sessionTokenHash = options.sessionTokenHash ?? null;
  if (sessionTokenHash !== null && request.userId === null) throw new TypeError("A rating checked against a session needs the user it guessed.");
  // An id that cannot be a pair's is still counted: the limit counts before anything is validated.
  const rating = isPossibleId(request.pairId) ? request : { ...request, pairId: "" };
  return ratingBatcherOf(pool)({ request: rating, call, sessionTokenHash }).then((answer): CountedRating => {
    if (!answer.sessionHolds) return { status: "not-signed-in-as-rater", signedInUserId: answer.signedInUserId };
    return { status: "counted", requestCount: answer.requestCount as number, outcome: answer.outcome };
  });
}
