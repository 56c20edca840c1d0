import { FIRST_BOX, MEMORIZED_BOX, type BoxNumber, type CardLearningState, type SessionSelection } from "@atelier/leitner";
import { PostgresAdapter, sql, type Compilable, type Kysely, type SelectQueryBuilder, type SqlBool, type Transaction } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
import { preparedQueriesPerShape, sqliteConnectionOf } from "../database/prepared-query.ts";
import type { DatabaseSchema } from "../database/schema.ts";
import { isNotHiddenByLearner } from "./hidden-pair-filter.ts";

type Executor = AtelierDatabase | Transaction<DatabaseSchema>;

/** A neighbouring line of the film, shown around a card. */
export type ContextLine = { english: string; swedish: string };

/** A session card as the pairs call answers it. */
export type SessionCard = {
  id: string;
  english: string;
  swedish: string;
  current_box: BoxNumber;
  confidence: number;
  context: { before: ContextLine | null; after: ContextLine | null };
};

type NeighbourColumns = { before_english: string | null; before_swedish: string | null; after_english: string | null; after_swedish: string | null };
type Tables = DatabaseSchema & { p: DatabaseSchema["subtitle_pair"] & NeighbourColumns; sp: DatabaseSchema["study_progress"] };

/** Which pairs this call may look at: the group's, between two positions, less the learner's hidden ones. */
type Scope = { learnerKey: string; groupId: string; firstPosition: number; lastPosition: number };

// The engine's `learningStateOf` in SQL: no record, or a record never studied nor rated, is new; box 5 is memorized.
const isNewCard = sql<SqlBool>`(sp.pair_id is null or (sp.review_count = 0 and sp.studied_at is null))`;

function isInLearningState(state: CardLearningState) {
  switch (state) {
    case "new":
      return isNewCard;
    case "in-progress":
      return sql<SqlBool>`(not ${isNewCard} and sp.box <> ${MEMORIZED_BOX})`;
    case "memorized":
      return sql<SqlBool>`(not ${isNewCard} and sp.box = ${MEMORIZED_BOX})`;
    default:
      return state satisfies never;
  }
}

function isInLearningStates(states: readonly CardLearningState[]) {
  if (states.length === 3) return sql<SqlBool>`1 = 1`;
  if (states.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(states.map(isInLearningState), sql` or `)})`;
}

// `needs-practice-now` and `box` of the engine's order; due dates are `toISOString()` text, which sorts as time does.
function needsPracticeNow(dueAtOrBefore: string) {
  return sql<number>`case when ${isNewCard} or sp.due_at is null or sp.due_at <= ${dueAtOrBefore} then 0 else 1 end`;
}
const currentBox = sql<number>`coalesce(sp.box, ${FIRST_BOX})`;

/**
 * A query of this module built once per shape (which branches it takes) and run with new values (`preparedQueriesPerShape`):
 * building and compiling these nested Kysely queries cost more than running them on SQLite (150 µs of a 450 µs test
 * session over a 200-pair film). `build` receives stand-ins for `values` and must take every value from them, never
 * from the call that first runs it: only `shape` may decide what it builds.
 */
const sessionCardsQueries = preparedQueriesPerShape("session-cards");

async function runShape<Row>(database: Executor, shape: string, build: (database: Kysely<DatabaseSchema>, ...values: never[]) => Compilable<Row>, values: readonly unknown[]): Promise<Row[]> {
  return (await sessionCardsQueries(shape, build).execute(database, ...(values as never[]))).rows;
}

/** The pairs of a group that a learner studies (hidden ones left out). */
function studiedPairsOf(database: Kysely<DatabaseSchema>, learnerKey: string, groupId: string) {
  return database
    .selectFrom("subtitle_pair as p")
    .select("p.position")
    .where("p.group_id", "=", groupId)
    .where((expression) => isNotHiddenByLearner(database, learnerKey, expression.ref("p.id")));
}

/**
 * The window as group positions, clamped as the engine's `clampSessionWindow` does (an index past the end means the
 * last studied pair; a start past the end is capped at the end); null when the learner has nothing to study here.
 *
 * The `index`-th studied pair is found by walking the group's positions in order, past the learner's hidden pairs: a
 * window late in a long film walked thousands of them (7–11 ms for pair 15,000 of 20,000). When the learner hides no
 * pair of the group and its positions run without a gap (as an upload numbers them and a split keeps them; a deletion
 * or a merge leaves a gap), the pair is the first position plus `index` − 1: two index probes for the ends, one for a
 * hidden pair, and the group's count.
 */
async function windowScope(database: Executor, learnerKey: string, groupId: string, window: SessionSelection["window"]): Promise<Scope | null> {
  const startIsGiven = window.startIndex !== null;
  const endIsGiven = window.endIndex !== null;
  // One statement, one round trip: both ends of the window (the `index`-th studied pair, 1-based) and the last one.
  const [bounds] = await runShape(
    database,
    `window ${startIsGiven} ${endIsGiven}`,
    (built, learnerKeyValue: string, groupIdValue: string, startOffset: number, endOffset: number) => {
      const lastStudied = studiedPairsOf(built, learnerKeyValue, groupIdValue).orderBy("p.position", "desc").limit(sql.lit(1));
      const positionAt = (offset: number | null) =>
        offset === null
          ? sql<number | null>`(${lastStudied})`
          : sql<number | null>`case when f.without_gaps then (case when f.first_position + ${offset} <= f.last_position then f.first_position + ${offset} end)
              else (${studiedPairsOf(built, learnerKeyValue, groupIdValue).orderBy("p.position").limit(sql.lit(1)).offset(offset)}) end`;
      const groupPositions = (aggregate: "min" | "max") => sql<number | null>`(select ${sql.raw(aggregate)}(e.position) from subtitle_pair as e where e.group_id = ${groupIdValue})`;
      const hidesAPair = sql<SqlBool>`exists (select 1 from study_hidden_pair as h where h.learner_key = ${learnerKeyValue} and h.group_id = ${groupIdValue})`;
      const pairCount = sql<number | null>`(select g.pair_count from subtitle_group as g where g.id = ${groupIdValue})`;
      // Materialized: each end of the window reads the film's shape once. Inside a SELECT, so that on PostgreSQL the
      // statement is a plain read that shares its round trip (decision 0047).
      const query = sql<{ start_position: number | string | null; end_position: number | string | null; last_position: number | string | null }>`select * from (with f as materialized (
          select s.first_position as first_position, s.last_position as last_position,
            (not ${hidesAPair} and s.pair_count = s.last_position - s.first_position + 1) as without_gaps
          from (select ${groupPositions("min")} as first_position, ${groupPositions("max")} as last_position, ${pairCount} as pair_count) as s
        )
        select ${positionAt(startIsGiven ? startOffset : null)} as start_position, ${positionAt(endIsGiven ? endOffset : null)} as end_position,
          ${positionAt(null)} as last_position
        from f) as bounds`;
      return { compile: () => query.compile(built) };
    },
    [learnerKey, groupId, (window.startIndex ?? 1) - 1, (window.endIndex ?? 1) - 1],
  );
  if (bounds === undefined || bounds.last_position === null) return null;
  const lastPosition = Number(bounds.end_position ?? bounds.last_position);
  return { learnerKey, groupId, firstPosition: Math.min(Number(bounds.start_position ?? lastPosition), lastPosition), lastPosition };
}

/** The group position of the studied pair just before or after `position`, if any. */
async function neighbourPosition(database: Executor, scope: Scope, position: number, direction: "before" | "after"): Promise<number | undefined> {
  const [row] = await runShape(
    database,
    `neighbour ${direction}`,
    (built, learnerKeyValue: string, groupIdValue: string, positionValue: number) =>
      studiedPairsOf(built, learnerKeyValue, groupIdValue)
        .where("p.position", direction === "before" ? "<" : ">", positionValue)
        .orderBy("p.position", direction === "before" ? "desc" : "asc")
        .limit(sql.lit(1)),
    [scope.learnerKey, scope.groupId, position],
  );
  return row === undefined ? undefined : Number(row.position);
}

/** Where the candidates' context lines come from: window functions over every studied pair, or a lookup per chosen card. */
type ContextSource = "every-pair" | "per-card";

/**
 * Which candidates a statement keeps: those in the learning states, or among them those of test order's first step or of
 * its rest, or the pairs the learner has no record of (new cards, in the learning states when "new" is).
 */
type CandidateFilter = "in-range" | "first-box-now" | "not-first-box-now" | "without-record";

/** What decides a statement's SQL text; everything else is a value. */
type CandidatesShape = {
  drivenBy: "pairs" | "records";
  context: ContextSource;
  learningStates: readonly CardLearningState[];
  filter: CandidateFilter;
  order: readonly (keyof SortKeys)[];
  limited: boolean;
  /**
   * Every position of the group, with no range to filter on: a generic PostgreSQL plan guesses that a range of values
   * keeps one pair in two hundred, and so walked the group's pairs to the records rather than the records' own index.
   */
  wholeGroup?: true;
  /** Only the records of this box that need practice now (urgency 0) or not (1): one class of test order. */
  inClass?: { box: BoxNumber; urgency: 0 | 1 };
  /**
   * With `inClass` box 1 needing practice now, the first class of test order while new cards are left: its records and,
   * merged in position order, the group's pairs without a record, each read in position order up to the limit.
   */
  withNewPairs?: true;
};

/**
 * The candidates between `from` and `to` (group positions): from the group's pairs in position order (index
 * `group_id, position`), each with its record if any, when new cards (no record) may be chosen; otherwise from the
 * learner's records of the group (index `learner_key, group_id, box, due_at`), which are fewer.
 */
function candidatesQuery(database: Kysely<DatabaseSchema>, shape: CandidatesShape, learnerKey: string, groupId: string, from: number, to: number, contextFrom: number, contextTo: number) {
  const pairs = database
    .selectFrom("subtitle_pair as q")
    .select(["q.id", "q.group_id", "q.position", "q.english", "q.swedish", "q.confidence"])
    .where("q.group_id", "=", groupId)
    .where((expression) => isNotHiddenByLearner(database, learnerKey, expression.ref("q.id")))
    .where("q.position", ">=", contextFrom)
    .where("q.position", "<=", contextTo)
    .select([
      sql<string | null>`lag(q.english) over (order by q.position)`.as("before_english"),
      sql<string | null>`lag(q.swedish) over (order by q.position)`.as("before_swedish"),
      sql<string | null>`lead(q.english) over (order by q.position)`.as("after_english"),
      sql<string | null>`lead(q.swedish) over (order by q.position)`.as("after_swedish"),
    ])
    .as("p");
  const everyPair = shape.context === "every-pair";
  const pairsInOrder = database.selectFrom(everyPair ? pairs : database.selectFrom("subtitle_pair as q").selectAll("q").where("q.group_id", "=", groupId).as("p"));
  const query =
    shape.drivenBy === "pairs"
      ? database.getExecutor().adapter instanceof PostgresAdapter
        ? // Each pair's record by its key, pair after pair in position order, so that the statement stops at its limit.
          // As a join, PostgreSQL estimates the filter on the record's box and due date to keep almost no row, reads
          // every record of the learner into a hash and sorts (2.3 ms for 20 cards of a learner with 5,000 records,
          // 0.5 ms this way). A lateral subquery with a limit is never flattened into a join; SQLite has no LATERAL,
          // and walks the pairs in order anyway.
          pairsInOrder.leftJoinLateral(
            (lateral) =>
              lateral
                .selectFrom("study_progress as record")
                .select(["record.pair_id", "record.box", "record.due_at", "record.review_count", "record.studied_at"])
                .whereRef("record.pair_id", "=", "p.id")
                .where("record.learner_key", "=", learnerKey)
                .limit(sql.lit(1))
                .as("sp"),
            (join) => join.onTrue(),
          )
        : pairsInOrder.leftJoin("study_progress as sp", (join) => join.onRef("sp.pair_id", "=", "p.id").on("sp.learner_key", "=", learnerKey))
      : // A record's group is its pair's: the pair is reached by its key, not by a walk along the group's positions, which
        // PostgreSQL chose once per record without statistics (two seconds for 5,000 records).
        database
          .selectFrom("study_progress as sp")
          .innerJoin(everyPair ? pairs : database.selectFrom("subtitle_pair as q").selectAll("q").as("p"), "p.id", "sp.pair_id")
          .where("sp.learner_key", "=", learnerKey)
          .where("sp.group_id", "=", groupId);
  let chosen = query as unknown as SelectQueryBuilder<Tables, "p" | "sp", object>;
  if (shape.wholeGroup !== true) chosen = chosen.where("p.position", ">=", from).where("p.position", "<=", to);
  if (!everyPair) chosen = chosen.where((expression) => isNotHiddenByLearner(database, learnerKey, expression.ref("p.id")));
  return chosen;
}

function candidateFilter(shape: CandidatesShape, dueAtOrBefore: string) {
  const inRange = isInLearningStates(shape.learningStates);
  const needsPracticeInFirstBox = sql<SqlBool>`(${needsPracticeNow(dueAtOrBefore)} = 0 and ${currentBox} = ${FIRST_BOX})`;
  switch (shape.filter) {
    case "in-range":
      return inRange;
    case "first-box-now":
      // From the records, the box is spelt out as well, so that the index `learner_key, group_id, box, …` reads box 1 only.
      return shape.drivenBy === "records" ? sql<SqlBool>`(sp.box = ${FIRST_BOX} and ${inRange} and ${needsPracticeInFirstBox})` : sql<SqlBool>`(${inRange} and ${needsPracticeInFirstBox})`;
    case "not-first-box-now":
      return sql<SqlBool>`(${inRange} and not ${needsPracticeInFirstBox})`;
    case "without-record":
      return sql<SqlBool>`(sp.pair_id is null and ${inRange})`;
    default:
      return shape.filter satisfies never;
  }
}

type SortKeys = { position: number; urgency: number; box: number };
type CardRow = { id: string; english: string; swedish: string; confidence: number; box: number; urgency: number; position: number } & NeighbourColumns;

function toSessionCard(row: CardRow): SessionCard {
  return {
    id: row.id,
    english: row.english,
    swedish: row.swedish,
    current_box: Number(row.box) as BoxNumber,
    confidence: Number(row.confidence),
    context: {
      before: row.before_english === null ? null : { english: row.before_english, swedish: row.before_swedish ?? "" },
      after: row.after_english === null ? null : { english: row.after_english, swedish: row.after_swedish ?? "" },
    },
  };
}

/**
 * A LIMIT taken from a value. On SQLite, as an expression: SQLite (3.53) reads a bare `limit ?`'s bound value while it
 * plans, and so marks the statement to be prepared again each time a value is bound, every run (85 µs of the 240 µs
 * test session of a 200-pair film). PostgreSQL keeps its generic plan (decision 0041) and the bare value.
 */
function limitOf(database: Kysely<DatabaseSchema>, limit: number) {
  return database.getExecutor().adapter instanceof PostgresAdapter ? limit : sql<number>`cast(${limit} as integer)`;
}

/** The candidates of one shape in its order, up to the limit when it has one, with the columns a card is made of. */
function selectedCandidatesQuery(database: Kysely<DatabaseSchema>, shape: CandidatesShape, learnerKey: string, groupId: string, from: number, to: number, contextFrom: number, contextTo: number, dueAtOrBefore: string, limit: number) {
  let candidates = candidatesQuery(database, shape, learnerKey, groupId, from, to, contextFrom, contextTo).where(candidateFilter(shape, dueAtOrBefore));
  if (shape.inClass !== undefined) candidates = candidates.where(sql<SqlBool>`(sp.box = ${sql.lit(shape.inClass.box)} and ${needsPracticeNow(dueAtOrBefore)} = ${sql.lit(shape.inClass.urgency)})`);
  let ordered = candidates
    .select(["p.id as id", "p.position as position", "p.english as english", "p.swedish as swedish", "p.confidence as confidence"])
    .select([currentBox.as("box"), needsPracticeNow(dueAtOrBefore).as("urgency")]);
  for (const key of shape.order) ordered = ordered.orderBy(key === "position" ? "p.position" : key);
  if (shape.limited) ordered = ordered.limit(limitOf(database, limit));
  return ordered;
}

/** One ordered, limited selection of candidates; with `per-card` context, each chosen card's studied neighbours looked up. */
function orderedCardsQuery(database: Kysely<DatabaseSchema>, shape: CandidatesShape, learnerKey: string, groupId: string, from: number, to: number, contextFrom: number, contextTo: number, dueAtOrBefore: string, limit: number) {
  let ordered = selectedCandidatesQuery(database, shape, learnerKey, groupId, from, to, contextFrom, contextTo, dueAtOrBefore, limit);
  if (shape.context === "every-pair") return ordered.select(["p.before_english", "p.before_swedish", "p.after_english", "p.after_swedish"]);
  if (shape.withNewPairs === true) {
    // Records and pairs without one are apart, so each part stops at the limit in position order (the pairs' index
    // `group_id, position`, the records' of box 1): neither sorts the group.
    const newPairs = selectedCandidatesQuery(database, { ...shape, drivenBy: "pairs", filter: "without-record", inClass: undefined, withNewPairs: undefined }, learnerKey, groupId, from, to, contextFrom, contextTo, dueAtOrBefore, limit);
    const bothParts = sql<CardRow>`(select * from (${ordered}) union all select * from (${newPairs}) order by position limit ${limitOf(database, limit)})`;
    ordered = database.selectFrom(bothParts.as("p")).selectAll() as unknown as typeof ordered;
  }
  const neighbour = (direction: "before" | "after") =>
    sql<string | null>`(select n.id from subtitle_pair n where n.group_id = ${groupId} and n.position ${sql.raw(direction === "before" ? "<" : ">")} selected.position and ${isNotHiddenByLearner(database, learnerKey, sql.ref("n.id"))} order by n.position ${sql.raw(direction === "before" ? "desc" : "asc")} limit 1)`;
  let withNeighbours = database
    .selectFrom(
      database
        .selectFrom(ordered.as("selected"))
        .select(["selected.id", "selected.position", "selected.english", "selected.swedish", "selected.confidence", "selected.box", "selected.urgency"])
        .select([neighbour("before").as("before_id"), neighbour("after").as("after_id")])
        .as("card"),
    )
    .$call((cards) =>
      database.getExecutor().adapter instanceof PostgresAdapter
        ? // Each neighbour by its key, card after card: a generic plan guesses a tenth of the group for an unknown limit,
          // and so joined the neighbours by hashing every pair of the group (a film of 200 pairs hashed twice for five
          // cards, a third of the statement). A lateral subquery with a limit is never flattened into such a join.
          cards
            .leftJoinLateral((lateral) => lateral.selectFrom("subtitle_pair as before").select(["before.english", "before.swedish"]).whereRef("before.id", "=", "card.before_id").limit(sql.lit(1)).as("before"), (join) => join.onTrue())
            .leftJoinLateral((lateral) => lateral.selectFrom("subtitle_pair as after").select(["after.english", "after.swedish"]).whereRef("after.id", "=", "card.after_id").limit(sql.lit(1)).as("after"), (join) => join.onTrue())
        : cards.leftJoin("subtitle_pair as before", "before.id", "card.before_id").leftJoin("subtitle_pair as after", "after.id", "card.after_id"),
    )
    .select([
      "card.id",
      "card.english",
      "card.swedish",
      "card.confidence",
      "card.box",
      "card.urgency",
      "card.position",
      "before.english as before_english",
      "before.swedish as before_swedish",
      "after.english as after_english",
      "after.swedish as after_swedish",
    ]);
  for (const key of shape.order) withNeighbours = withNeighbours.orderBy(`card.${key}`);
  return withNeighbours;
}

/** The positions an `every-pair` statement reads context from: the neighbours of its first and last candidate lie just outside. */
async function contextBounds(database: Executor, scope: Scope, context: ContextSource, from: number, to: number): Promise<{ contextFrom: number; contextTo: number }> {
  if (context === "per-card") return { contextFrom: from, contextTo: to };
  const [before, after] = await Promise.all([neighbourPosition(database, scope, from, "before"), neighbourPosition(database, scope, to, "after")]);
  return { contextFrom: before ?? from, contextTo: after ?? to };
}

/** Runs one ordered, limited selection between `from` and `to`. */
async function selectInOrder(database: Executor, scope: Scope, shape: Omit<CandidatesShape, "limited">, from: number, to: number, dueAtOrBefore: string, limit: number | null): Promise<SessionCard[]> {
  const fullShape: CandidatesShape = { ...shape, limited: limit !== null };
  const { contextFrom, contextTo } = await contextBounds(database, scope, shape.context, from, to);
  const rows = await runShape(
    database,
    `cards ${JSON.stringify(fullShape)}`,
    (built, learnerKeyValue: string, groupIdValue: string, fromValue: number, toValue: number, contextFromValue: number, contextToValue: number, dueAtOrBeforeValue: string, limitValue: number) =>
      orderedCardsQuery(built, fullShape, learnerKeyValue, groupIdValue, fromValue, toValue, contextFromValue, contextToValue, dueAtOrBeforeValue, limitValue),
    [scope.learnerKey, scope.groupId, from, to, contextFrom, contextTo, dueAtOrBefore, limit ?? 0],
  );
  return (rows as CardRow[]).map(toSessionCard);
}

// A short session stops early: the walk reads growing slices of the group, never the whole of it for 20 cards. On
// PostgreSQL each slice is a round trip to another process, which under load waits for a connection of the pool: the
// first slice there spans a film of 512 lines at once (a statement stops at its limit in position order anyway).
const firstSliceOfPositionsOnSqlite = 128;
const firstSliceOfPositionsOnPostgres = 512;

/** Below every position a pair can have: a walk over the whole group may begin here without knowing where it starts. */
const belowEveryPosition = -2_147_483_648;
/** Above every position a pair can have. */
const aboveEveryPosition = 2_147_483_647;

// The engine's `learningStateOf`: a record studied or rated is no longer new.
const isStartedRecord = sql<SqlBool>`(sp.review_count <> 0 or sp.studied_at is not null)`;

/**
 * Up to this many studied pairs, a test session of the whole group counts the learner's started records to know
 * whether a new card is left; over it, the count (every record read from the index, about 0.25 ms of PostgreSQL a
 * thousand) would cost a learner still finding new cards more than the walk it may save, and the walk is taken.
 */
const countStartedUpToPairs = 1024;

/**
 * One row: `studied`, the group's size (`pair_count`) less the learner's hidden pairs (null when the group is gone), and
 * `started`, the learner's started records of the group less those of hidden pairs (null over `countStartedUpToPairs`
 * studied pairs). Both are counted from the indexes `learner_key, group_id, box, due_at, review_count, correct_count,
 * studied_at` and `learner_key, group_id` of the hidden pairs, as the group stats count them; no new card is left when
 * `started` reaches `studied`.
 */
function startedTallyQuery(learnerKey: string, groupId: string) {
  const hiddenPairs = sql`study_hidden_pair as h where h.learner_key = ${learnerKey} and h.group_id = ${groupId}`;
  return sql<{ studied: number | string | bigint | null; started: number | string | bigint | null }>`select s.studied as studied,
    case when s.studied <= ${sql.lit(countStartedUpToPairs)} then
      (select count(*) from study_progress as sp where sp.learner_key = ${learnerKey} and sp.group_id = ${groupId} and ${isStartedRecord})
      - (select count(*) from ${hiddenPairs} and exists (select 1 from study_progress as sp where sp.learner_key = h.learner_key and sp.pair_id = h.pair_id and ${isStartedRecord}))
    end as started
    from (select (select g.pair_count from subtitle_group as g where g.id = ${groupId}) - (select count(*) from ${hiddenPairs}) as studied) as s`;
}

/**
 * The classes of test order (`urgency box`) that hold a record of the learner's, and whether new cards are left (the
 * first class then holds them too); or why the classes are not gone by: nothing to study, or a film too long to count
 * or to look for its new cards along (`walk`).
 */
type TestOrderClasses = "nothing-studied" | "walk" | { newCardsLeft: boolean; holdingRecords: Set<string> };

const classKey = (urgency: number, box: number) => `${urgency} ${box}`;
const testOrderClasses = [0, 1].flatMap((urgency) => [1, 2, 3, 4, 5].map((box) => ({ urgency: urgency as 0 | 1, box: box as BoxNumber })));

/**
 * Up to this many studied pairs, a test session of the whole group with new cards left is read class by class too, its
 * first class with the pairs that have no record (`withNewPairs`): those are looked for along the film in position order,
 * as the one statement read every pair of it (and sorted them).
 */
const newCardsByClassUpToPairs = 512;

/**
 * On SQLite, `startedTallyQuery`'s counts and which classes of test order (needing practice now or not, and box) hold a
 * record, each an index seek of `learner_key, group_id, box, due_at, …`: the classes a session's cards are then read
 * from, one after the other, skipping the empty. (Counting by class instead read every record: a GROUP BY's sorter, or
 * ten filtered counts, cost 60–130 µs on a 200-pair film; a statement that finds nothing, about 10.)
 */
async function classesOfTestOrder(database: Executor, learnerKey: string, groupId: string, dueAtOrBefore: string): Promise<TestOrderClasses> {
  const rows = await runShape(
    database,
    "test order classes",
    (built, learnerKeyValue: string, groupIdValue: string, dueAtOrBeforeValue: string) => {
      const recordsOf = (box: BoxNumber) => sql`study_progress as sp where sp.learner_key = ${learnerKeyValue} and sp.group_id = ${groupIdValue} and sp.box = ${sql.lit(box)}`;
      // A record needs practice now when it is new (not studied nor rated), has no due date or is due by now
      // (`needsPracticeNow`). A new record is looked for only while new cards are left: once every pair is started, only
      // a hidden pair's record can be new. A class marked by a record that gives no card (a hidden pair's) is read in vain.
      const holdsRecords = ({ urgency, box }: (typeof testOrderClasses)[number]) =>
        urgency === 0
          ? sql`case when exists (select 1 from ${recordsOf(box)} and sp.due_at is null) or exists (select 1 from ${recordsOf(box)} and sp.due_at <= ${dueAtOrBeforeValue}) then 1
              when t.started < t.studied then exists (select 1 from ${recordsOf(box)} and sp.review_count = 0 and sp.studied_at is null) else 0 end`
          : sql`exists (select 1 from ${recordsOf(box)} and sp.due_at > ${dueAtOrBeforeValue})`;
      // Materialized: flattened, the counts were made again in each class's condition (77 µs for 13).
      const query = sql<Record<string, number | string | bigint | boolean | null>>`with t as materialized (${startedTallyQuery(learnerKeyValue, groupIdValue)})
        select t.studied as studied, t.started as started,
        ${sql.join(testOrderClasses.map((inClass) => sql`case when t.studied <= t.started or t.studied <= ${sql.lit(newCardsByClassUpToPairs)} then ${holdsRecords(inClass)} end as ${sql.ref(`class_${inClass.urgency}_${inClass.box}`)}`))}
        from t`;
      return { compile: () => query.compile(built) };
    },
    [learnerKey, groupId, dueAtOrBefore],
  );
  const [row] = rows;
  const studied = row?.studied === null || row?.studied === undefined ? 0 : Number(row.studied);
  if (studied <= 0) return "nothing-studied";
  // Not counted (null): new cards may be left, and the walk finds them.
  const started = row?.started === null || row?.started === undefined ? null : Number(row.started);
  const newCardsLeft = started === null || started < studied;
  if (newCardsLeft && (started === null || studied > newCardsByClassUpToPairs)) return "walk";
  return { newCardsLeft, holdingRecords: new Set(testOrderClasses.filter(({ urgency, box }) => Number(row?.[`class_${urgency}_${box}`] ?? 0) !== 0).map(({ urgency, box }) => classKey(urgency, box))) };
}

/**
 * A test session's cards of the first step (box 1, needing practice now) and of the rest, apart; `complete` when they
 * are the whole session's (the first step was read over the whole group, from the records, every pair being started).
 */
type FirstStepAndRest = { first: SessionCard[]; rest: SessionCard[]; complete: boolean };

// A card of the first step needs practice now in box 1; no card of the rest does (the rest is its complement).
const isOfTheFirstStep = (row: CardRow) => Number(row.urgency) === 0 && Number(row.box) === FIRST_BOX;

/**
 * On PostgreSQL, a test session's first step over the first slice of the group and, in the same statement, its rest
 * over the whole group (decision 0050). The rest is read only when the step found fewer than `limit` cards and no
 * studied pair lies beyond the slice: only then are its cards the session's. PostgreSQL checks both before it reads the
 * rest (a one-time filter on the union's second branch), so a session its first step fills reads no more than the step.
 * `rest` is empty when the rest was not read, or when it holds no card.
 *
 * Once the learner has started every pair of the group (`startedTallyQuery`, counted first in the same statement), the
 * first step holds no new card: it is read from the records in box 1, over the whole group, instead of walking the
 * slice's pairs to look up each one's record (157 lookups a session once box 1 holds few cards, decision 0056), and
 * the answer is `complete` whatever the film's length.
 */
async function selectFirstStepAndRest(database: Executor, scope: Scope, firstStep: Omit<CandidatesShape, "limited">, rest: Omit<CandidatesShape, "limited">, sliceEnd: number, dueAtOrBefore: string, limit: number, startedFromRecords: boolean): Promise<FirstStepAndRest> {
  const rows = await runShape(
    database,
    `first step and rest ${JSON.stringify([firstStep, rest, startedFromRecords])}`,
    (built, learnerKeyValue: string, groupIdValue: string, fromValue: number, sliceEndValue: number, toValue: number, dueAtOrBeforeValue: string, limitValue: number) => {
      const walkedCards = orderedCardsQuery(built, { ...firstStep, limited: true }, learnerKeyValue, groupIdValue, fromValue, sliceEndValue, fromValue, sliceEndValue, dueAtOrBeforeValue, limitValue);
      const startedCards = orderedCardsQuery(built, { ...firstStep, drivenBy: "records", wholeGroup: true, limited: true }, learnerKeyValue, groupIdValue, fromValue, toValue, fromValue, toValue, dueAtOrBeforeValue, limitValue);
      const restCards = orderedCardsQuery(built, { ...rest, wholeGroup: true, limited: true }, learnerKeyValue, groupIdValue, fromValue, toValue, fromValue, toValue, dueAtOrBeforeValue, limitValue);
      const studiedPairBeyondSlice = studiedPairsOf(built, learnerKeyValue, groupIdValue).where("p.position", ">", sliceEndValue);
      // Null (not counted, or the group gone) is not started: the walk runs.
      const everyPairStarted = startedFromRecords ? sql<SqlBool>`coalesce((select t.studied <= t.started from tally as t), false)` : sql<SqlBool>`(1 = 0)`;
      // The first step's cards sort before the rest's in (urgency, box): the order of the two steps in one.
      const query = sql<CardRow & { complete: boolean | null }>`select * from (
        with tally as materialized (${startedTallyQuery(learnerKeyValue, groupIdValue)}),
        first_step as materialized (
          select * from (${walkedCards}) as walked where not ${everyPairStarted}
          union all
          select * from (${startedCards}) as started where ${everyPairStarted}
        )
        select both_steps.*, ${everyPairStarted} as complete from (
          select * from first_step
          union all
          select * from (${restCards}) as rest where (select count(*) from first_step) < ${limitValue} and (${everyPairStarted} or not exists (${studiedPairBeyondSlice}))
        ) as both_steps
      ) as cards order by urgency, box, position`;
      return { compile: () => query.compile(built) };
    },
    [scope.learnerKey, scope.groupId, belowEveryPosition, sliceEnd, aboveEveryPosition, dueAtOrBefore, limit],
  );
  return { first: rows.filter(isOfTheFirstStep).map(toSessionCard), rest: rows.filter((row) => !isOfTheFirstStep(row)).map(toSessionCard), complete: rows[0]?.complete === true };
}

/**
 * On SQLite, a test session over a window of fewer positions than this is chosen by one statement rather than in two
 * steps. SQLite runs in this process and a statement costs the rows it reads (one statement over a 200-pair film: 230 µs
 * against 574 for the three of the two steps, all cards started); PostgreSQL reads those 200 rows by 200 index probes
 * in another process, and 200 learners got 30 % fewer answers a second from it with one statement than with two steps.
 */
const oneStatementUpToPositionsOnSqlite = 512;

/** Where a walk resumes: the cards found so far and the next slice, when a first slice was read before the window was known. */
type WalkStart = { cards: SessionCard[]; from: number; span: number };

/**
 * The first `limit` candidates in group order that pass the filter, read slice by slice along the group's positions.
 * Position order is spelt out this way because no planner can tell how many pairs a range filter keeps: PostgreSQL,
 * guessing one, sorted the whole group for 20 cards.
 */
async function walkInPositionOrder(database: Executor, scope: Scope, shape: Omit<CandidatesShape, "limited">, dueAtOrBefore: string, limit: number, start: WalkStart): Promise<SessionCard[]> {
  const cards = [...start.cards];
  let from = Math.max(start.from, scope.firstPosition);
  let span = start.span;
  while (from <= scope.lastPosition && cards.length < limit) {
    const to = Math.min(from + span - 1, scope.lastPosition);
    cards.push(...(await selectInOrder(database, scope, shape, from, to, dueAtOrBefore, limit - cards.length)));
    from = to + 1;
    span *= 4;
  }
  return cards;
}

/**
 * Runs the engine's session selection (`describeSessionSelection`) as SQL over the learner's studied pairs of a
 * group (hidden pairs left out); the same cards, in the same order, as `selectSessionCards` over them in memory,
 * each with the studied pair before and after it as context.
 *
 * Test order runs in two steps so a short session stops early: the cards that need practice now in box 1 (new
 * cards and due box-1 cards) come first, walked in position order until the limit; only if too few, the rest comes
 * from the learner's own records, which are far fewer than the group's pairs. On SQLite, over a window of fewer than
 * `oneStatementUpToPositions` positions (512 unless given; 0 on PostgreSQL) one statement sorts every candidate instead.
 * Walks read slices of `firstSliceOfPositions` positions first (128 on SQLite, 512 on PostgreSQL unless given), four
 * times longer each time; on PostgreSQL a walk over the whole group reads its first slice while the window is read
 * (decision 0044).
 *
 * A test session of the whole group (`classByClass`, true unless given) is read from the learner's records once every
 * pair of it is started: no new card is left, and its first step is box 1's records rather than a walk (decision 0056).
 * On SQLite it is read class by class of test order, and so too over a film of up to 512 studied pairs with new cards
 * left, the first class then with the pairs that have no record (decision 0057): that replaces the one statement and
 * the two steps. On PostgreSQL the early statement counts and chooses.
 *
 * @example
 * const cards = await selectSessionCardsInDatabase(database, learner.key, group.id, describeSessionSelection(config, clock()));
 */
export async function selectSessionCardsInDatabase(
  database: Executor,
  learnerKey: string,
  groupId: string,
  selection: SessionSelection,
  options: { oneStatementUpToPositions?: number; firstSliceOfPositions?: number; classByClass?: boolean } = {},
): Promise<SessionCard[]> {
  const onSqlite = sqliteConnectionOf(database) !== undefined;
  const classByClass = options.classByClass ?? true;
  const { dueAtOrBefore, learningStates } = selection;
  const context: ContextSource = selection.limit === null ? "every-pair" : "per-card";
  const drivenBy = learningStates.includes("new") ? "pairs" : "records";
  const firstSlice = options.firstSliceOfPositions ?? (onSqlite ? firstSliceOfPositionsOnSqlite : firstSliceOfPositionsOnPostgres);
  const [firstKey] = selection.order;
  const byUrgency = ["urgency", "box", "position"] as const;
  // The two steps below give the order (urgency, box, position) in two parts; on SQLite, over a short window, one
  // statement sorting all of it costs less (the learners of a 200-pair film spent a quarter of the server in three).
  const oneStatementUpToPositions = options.oneStatementUpToPositions ?? (onSqlite ? oneStatementUpToPositionsOnSqlite : 0);
  // What the walk in position order keeps, when this selection walks: the whole of a study session, the first step of a test.
  const walkedFilter: CandidateFilter | null = drivenBy === "pairs" && selection.limit !== null && selection.limit > 0 ? (firstKey === "position" ? "in-range" : "first-box-now") : null;
  const walkedShape = walkedFilter === null ? null : ({ drivenBy, context, learningStates, filter: walkedFilter, order: ["position"] } as const);

  // A window that starts at the first studied pair and ends at the last is the whole group: a walk over it can read its
  // first slice while the window is read (one round trip less on PostgreSQL), from below every position. SQLite answers
  // in this process, where the statements cost what they read and a short window takes one statement instead.
  const walksTheWholeGroup = selection.window.startIndex === 1 && selection.window.endIndex === null;
  const earlyScope: Scope = { learnerKey, groupId, firstPosition: belowEveryPosition, lastPosition: firstSlice };
  const restShape = { drivenBy: "records", context, learningStates, filter: drivenBy === "pairs" ? "not-first-box-now" : "in-range", order: byUrgency } as const;
  const readEarly = async (shape: NonNullable<typeof walkedShape>, limit: number): Promise<FirstStepAndRest> =>
    shape.filter === "first-box-now"
      ? selectFirstStepAndRest(database, earlyScope, shape, restShape, firstSlice, dueAtOrBefore, limit, classByClass)
      : { first: await selectInOrder(database, earlyScope, shape, belowEveryPosition, firstSlice, dueAtOrBefore, limit), rest: [], complete: false };
  // A test session of the whole group, class by class of test order (needing practice now or not, by box), each class in
  // position order: in this process a statement costs what it reads, and a class holds a few of the learner's records
  // where the whole order sorted every pair of the film. New cards belong to the first class, looked for along the film.
  if (classByClass && onSqlite && firstKey === "needs-practice-now" && drivenBy === "pairs" && walksTheWholeGroup && selection.limit !== null && selection.limit > 0) {
    const classes = await classesOfTestOrder(database, learnerKey, groupId, dueAtOrBefore);
    if (classes === "nothing-studied") return [];
    if (classes !== "walk") {
      const wholeGroup: Scope = { learnerKey, groupId, firstPosition: belowEveryPosition, lastPosition: aboveEveryPosition };
      const cards: SessionCard[] = [];
      for (const inClass of testOrderClasses) {
        const withNewPairs = classes.newCardsLeft && inClass.urgency === 0 && inClass.box === FIRST_BOX;
        if (cards.length === selection.limit || !(withNewPairs || classes.holdingRecords.has(classKey(inClass.urgency, inClass.box)))) continue;
        const shape = { drivenBy: "records", context, learningStates, filter: "in-range", order: ["position"], wholeGroup: true, inClass, ...(withNewPairs && { withNewPairs }) } as const;
        cards.push(...(await selectInOrder(database, wholeGroup, shape, belowEveryPosition, aboveEveryPosition, dueAtOrBefore, selection.limit - cards.length)));
      }
      return cards;
    }
  }
  const [scope, early] = await Promise.all([
    windowScope(database, learnerKey, groupId, selection.window),
    !onSqlite && walksTheWholeGroup && walkedShape !== null && selection.limit !== null ? readEarly(walkedShape, selection.limit) : null,
  ]);
  if (scope === null || selection.limit === 0) return [];
  // The answer is the session's when the first step came from the records (every pair started), or when the rest was read
  // with a walked first step, which happens only when no studied pair lies beyond the first slice.
  if (early !== null && (early.complete || (early.rest.length > 0 && scope.lastPosition <= firstSlice))) return [...early.first, ...early.rest].slice(0, selection.limit ?? undefined);
  const walkStart: WalkStart = early === null ? { cards: [], from: scope.firstPosition, span: firstSlice } : { cards: early.first, from: firstSlice + 1, span: firstSlice * 4 };

  const inPositionOrder = async (filter: CandidateFilter, limit: number | null) => {
    const shape = { drivenBy, context, learningStates, filter, order: ["position"] } as const;
    return drivenBy === "pairs" && limit !== null ? walkInPositionOrder(database, scope, shape, dueAtOrBefore, limit, walkStart) : selectInOrder(database, scope, shape, scope.firstPosition, scope.lastPosition, dueAtOrBefore, limit);
  };
  switch (firstKey) {
    case "position":
      return inPositionOrder("in-range", selection.limit);
    case "needs-practice-now": {
      if (drivenBy === "pairs" && scope.lastPosition - scope.firstPosition < oneStatementUpToPositions) {
        return selectInOrder(database, scope, { drivenBy, context, learningStates, filter: "in-range", order: byUrgency }, scope.firstPosition, scope.lastPosition, dueAtOrBefore, selection.limit);
      }
      const first = drivenBy === "pairs" ? await inPositionOrder("first-box-now", selection.limit) : [];
      const remaining = selection.limit === null ? null : selection.limit - first.length;
      if (remaining === 0) return first;
      const rest = await selectInOrder(
        database,
        scope,
        restShape,
        scope.firstPosition,
        scope.lastPosition,
        dueAtOrBefore,
        remaining,
      );
      return [...first, ...rest];
    }
    default:
      return firstKey satisfies never;
  }
}

/**
 * How many cards `selectSessionCardsInDatabase` would choose for this selection, counted in SQL without loading them:
 * the setup's "cards available in this range" for a From–To window (issue 16).
 *
 * @example
 * const available = await countSessionCardsInDatabase(database, learner.key, group.id, describeSessionSelection({ mode: "study", range: "memorized", startIndex: 40, endIndex: 90 }, clock()));
 */
export async function countSessionCardsInDatabase(database: Executor, learnerKey: string, groupId: string, selection: SessionSelection): Promise<number> {
  const scope = await windowScope(database, learnerKey, groupId, selection.window);
  if (scope === null || selection.limit === 0) return 0;
  const shape: CandidatesShape = { drivenBy: selection.learningStates.includes("new") ? "pairs" : "records", context: "per-card", learningStates: selection.learningStates, filter: "in-range", order: [], limited: false };
  const [row] = await runShape(
    database,
    `count ${JSON.stringify(shape)}`,
    (built, learnerKeyValue: string, groupIdValue: string, from: number, to: number) =>
      candidatesQuery(built, shape, learnerKeyValue, groupIdValue, from, to, from, to)
        .where(isInLearningStates(shape.learningStates))
        .select((expression) => expression.fn.countAll<number | string | bigint>().as("count")),
    [learnerKey, groupId, scope.firstPosition, scope.lastPosition],
  );
  const count = Number(row?.count ?? 0);
  return selection.limit === null ? count : Math.min(count, selection.limit);
}
