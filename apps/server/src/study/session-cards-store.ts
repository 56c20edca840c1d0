import { FIRST_BOX, MEMORIZED_BOX, type BoxNumber, type CardLearningState, type SessionSelection } from "@atelier/leitner";
import { sql, type Expression, type SelectQueryBuilder, type SqlBool, type Transaction } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
import { executeByShape } from "../database/prepared-query.ts";
import type { DatabaseSchema } from "../database/schema.ts";

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

function isNotHidden(learnerKey: string, pairId: Expression<string>) {
  return sql<SqlBool>`not exists (select 1 from study_hidden_pair where study_hidden_pair.learner_key = ${learnerKey} and study_hidden_pair.pair_id = ${pairId})`;
}

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
 * The window as group positions, clamped as the engine's `clampSessionWindow` does (an index past the end means the
 * last studied pair; a start past the end is capped at the end); null when the learner has nothing to study here.
 */
async function windowScope(database: Executor, learnerKey: string, groupId: string, window: SessionSelection["window"]): Promise<Scope | null> {
  // The position of the `index`-th studied pair (1-based, hidden pairs left out), or of the last one for null.
  const positionOfStudiedPair = (index: number | null) => {
    const studiedPairs = database
      .selectFrom("subtitle_pair as p")
      .select("p.position")
      .where("p.group_id", "=", groupId)
      .where((expression) => isNotHidden(learnerKey, expression.ref("p.id")));
    return index === null ? studiedPairs.orderBy("p.position", "desc").limit(sql.lit(1)) : studiedPairs.orderBy("p.position").limit(sql.lit(1)).offset(index - 1);
  };
  // One statement, one round trip: both ends of the window and the last studied pair.
  const boundsQuery = database.selectNoFrom([
    positionOfStudiedPair(window.startIndex).$asScalar().as("start_position"),
    positionOfStudiedPair(window.endIndex).$asScalar().as("end_position"),
    positionOfStudiedPair(null).$asScalar().as("last_position"),
  ]);
  const [bounds] = await executeByShape(database, boundsQuery);
  if (bounds === undefined || bounds.last_position === null) return null;
  const lastPosition = Number(bounds.end_position ?? bounds.last_position);
  return { learnerKey, groupId, firstPosition: Math.min(Number(bounds.start_position ?? lastPosition), lastPosition), lastPosition };
}

/** The group position of the studied pair just before or after `position`, if any. */
async function neighbourPosition(database: Executor, scope: Scope, position: number, direction: "before" | "after"): Promise<number | undefined> {
  const neighbour = database
    .selectFrom("subtitle_pair as p")
    .select("p.position")
    .where("p.group_id", "=", scope.groupId)
    .where("p.position", direction === "before" ? "<" : ">", position)
    .where((expression) => isNotHidden(scope.learnerKey, expression.ref("p.id")))
    .orderBy("p.position", direction === "before" ? "desc" : "asc")
    .limit(sql.lit(1));
  const [row] = await executeByShape(database, neighbour);
  return row === undefined ? undefined : Number(row.position);
}

/** Where the candidates' context lines come from: window functions over every studied pair, or a lookup per chosen card. */
type ContextSource = "every-pair" | "per-card";

/**
 * The candidates between `from` and `to` (group positions): from the group's pairs in position order (index
 * `group_id, position`), each with its record if any, when new cards (no record) may be chosen; otherwise from the
 * learner's records of the group (index `learner_key, group_id, box, due_at`), which are fewer.
 */
async function candidates(database: Executor, scope: Scope, drivenBy: "pairs" | "records", from: number, to: number, context: ContextSource) {
  let studiedPairs = database
    .selectFrom("subtitle_pair as q")
    .select(["q.id", "q.group_id", "q.position", "q.english", "q.swedish", "q.confidence"])
    .where("q.group_id", "=", scope.groupId)
    .where((expression) => isNotHidden(scope.learnerKey, expression.ref("q.id")));
  if (context === "every-pair") {
    // The neighbours of the first and last candidate lie just outside the range.
    const [before, after] = await Promise.all([neighbourPosition(database, scope, from, "before"), neighbourPosition(database, scope, to, "after")]);
    studiedPairs = studiedPairs.where("q.position", ">=", before ?? from).where("q.position", "<=", after ?? to);
  } else {
    studiedPairs = studiedPairs.where("q.position", ">=", from).where("q.position", "<=", to);
  }
  const pairs = studiedPairs
    .select([
      sql<string | null>`lag(q.english) over (order by q.position)`.as("before_english"),
      sql<string | null>`lag(q.swedish) over (order by q.position)`.as("before_swedish"),
      sql<string | null>`lead(q.english) over (order by q.position)`.as("after_english"),
      sql<string | null>`lead(q.swedish) over (order by q.position)`.as("after_swedish"),
    ])
    .as("p");
  const query =
    drivenBy === "pairs"
      ? database
          .selectFrom(context === "every-pair" ? pairs : database.selectFrom("subtitle_pair as q").selectAll("q").where("q.group_id", "=", scope.groupId).as("p"))
          .leftJoin("study_progress as sp", (join) => join.onRef("sp.pair_id", "=", "p.id").on("sp.learner_key", "=", scope.learnerKey))
      : // A record's group is its pair's: the pair is reached by its key, not by a walk along the group's positions, which
        // PostgreSQL chose once per record without statistics (two seconds for 5,000 records).
        database
          .selectFrom("study_progress as sp")
          .innerJoin(context === "every-pair" ? pairs : database.selectFrom("subtitle_pair as q").selectAll("q").as("p"), "p.id", "sp.pair_id")
          .where("sp.learner_key", "=", scope.learnerKey)
          .where("sp.group_id", "=", scope.groupId);
  let chosen = query as unknown as SelectQueryBuilder<Tables, "p" | "sp", object>;
  chosen = chosen.where("p.position", ">=", from).where("p.position", "<=", to);
  if (context === "per-card") chosen = chosen.where((expression) => isNotHidden(scope.learnerKey, expression.ref("p.id")));
  return chosen;
}

type SortKeys = { position: number; urgency: number; box: number };
type CardRow = { id: string; english: string; swedish: string; confidence: number; box: number } & NeighbourColumns;

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

/** Runs one ordered, limited selection; with `per-card` context, looks up each chosen card's studied neighbours. */
async function selectInOrder(
  database: Executor,
  scope: Scope,
  chosen: SelectQueryBuilder<Tables, "p" | "sp", object>,
  order: readonly (keyof SortKeys)[],
  dueAtOrBefore: string,
  limit: number | null,
  context: ContextSource,
): Promise<SessionCard[]> {
  let ordered = chosen
    .select(["p.id as id", "p.position as position", "p.english as english", "p.swedish as swedish", "p.confidence as confidence"])
    .select([currentBox.as("box"), needsPracticeNow(dueAtOrBefore).as("urgency")]);
  for (const key of order) ordered = ordered.orderBy(key === "position" ? "p.position" : key);
  if (limit !== null) ordered = ordered.limit(limit);
  if (context === "every-pair") {
    const rows = await executeByShape(database, ordered.select(["p.before_english", "p.before_swedish", "p.after_english", "p.after_swedish"]));
    return rows.map(toSessionCard);
  }
  const neighbour = (direction: "before" | "after") =>
    sql<string | null>`(select n.id from subtitle_pair n where n.group_id = ${scope.groupId} and n.position ${sql.raw(direction === "before" ? "<" : ">")} selected.position and ${isNotHidden(scope.learnerKey, sql.ref("n.id"))} order by n.position ${sql.raw(direction === "before" ? "desc" : "asc")} limit 1)`;
  let withNeighbours = database
    .selectFrom(
      database
        .selectFrom(ordered.as("selected"))
        .select(["selected.id", "selected.position", "selected.english", "selected.swedish", "selected.confidence", "selected.box", "selected.urgency"])
        .select([neighbour("before").as("before_id"), neighbour("after").as("after_id")])
        .as("card"),
    )
    .leftJoin("subtitle_pair as before", "before.id", "card.before_id")
    .leftJoin("subtitle_pair as after", "after.id", "card.after_id")
    .select([
      "card.id",
      "card.english",
      "card.swedish",
      "card.confidence",
      "card.box",
      "before.english as before_english",
      "before.swedish as before_swedish",
      "after.english as after_english",
      "after.swedish as after_swedish",
    ]);
  for (const key of order) withNeighbours = withNeighbours.orderBy(`card.${key}`);
  return (await executeByShape(database, withNeighbours)).map(toSessionCard);
}

// A short session stops early: the walk reads growing slices of the group, never the whole of it for 20 cards.
const firstSliceOfPositions = 128;

/**
 * The first `limit` candidates in group order that pass `filter`, read slice by slice along the group's positions.
 * Position order is spelt out this way because no planner can tell how many pairs a range filter keeps: PostgreSQL,
 * guessing one, sorted the whole group for 20 cards.
 */
async function walkInPositionOrder(database: Executor, scope: Scope, filter: Expression<SqlBool>, dueAtOrBefore: string, limit: number): Promise<SessionCard[]> {
  const cards: SessionCard[] = [];
  let from = scope.firstPosition;
  let span = firstSliceOfPositions;
  while (from <= scope.lastPosition && cards.length < limit) {
    const to = Math.min(from + span - 1, scope.lastPosition);
    const slice = (await candidates(database, scope, "pairs", from, to, "per-card")).where(filter);
    cards.push(...(await selectInOrder(database, scope, slice, ["position"], dueAtOrBefore, limit - cards.length, "per-card")));
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
 * from the learner's own records, which are far fewer than the group's pairs.
 *
 * @example
 * const cards = await selectSessionCardsInDatabase(database, learner.key, group.id, describeSessionSelection(config, clock()));
 */
export async function selectSessionCardsInDatabase(database: Executor, learnerKey: string, groupId: string, selection: SessionSelection): Promise<SessionCard[]> {
  const scope = await windowScope(database, learnerKey, groupId, selection.window);
  if (scope === null || selection.limit === 0) return [];
  const { dueAtOrBefore } = selection;
  const context: ContextSource = selection.limit === null ? "every-pair" : "per-card";
  const inRange = isInLearningStates(selection.learningStates);
  const drivenBy = selection.learningStates.includes("new") ? "pairs" : "records";
  const inPositionOrder = async (filter: Expression<SqlBool>, limit: number | null) =>
    drivenBy === "pairs" && limit !== null
      ? walkInPositionOrder(database, scope, filter, dueAtOrBefore, limit)
      : selectInOrder(database, scope, (await candidates(database, scope, drivenBy, scope.firstPosition, scope.lastPosition, context)).where(filter), ["position"], dueAtOrBefore, limit, context);
  const [firstKey] = selection.order;
  switch (firstKey) {
    case "position":
      return inPositionOrder(inRange, selection.limit);
    case "needs-practice-now": {
      const needsPracticeInFirstBox = sql<SqlBool>`(${needsPracticeNow(dueAtOrBefore)} = 0 and ${currentBox} = ${FIRST_BOX})`;
      const first = drivenBy === "pairs" ? await inPositionOrder(sql<SqlBool>`(${inRange} and ${needsPracticeInFirstBox})`, selection.limit) : [];
      const remaining = selection.limit === null ? null : selection.limit - first.length;
      if (remaining === 0) return first;
      let rest = (await candidates(database, scope, "records", scope.firstPosition, scope.lastPosition, context)).where(inRange);
      if (drivenBy === "pairs") rest = rest.where(sql<SqlBool>`not ${needsPracticeInFirstBox}`);
      return [...first, ...(await selectInOrder(database, scope, rest, ["urgency", "box", "position"], dueAtOrBefore, remaining, context))];
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
  const drivenBy = selection.learningStates.includes("new") ? "pairs" : "records";
  const inRange = (await candidates(database, scope, drivenBy, scope.firstPosition, scope.lastPosition, "per-card")).where(isInLearningStates(selection.learningStates));
  const [row] = await executeByShape(database, inRange.select((expression) => expression.fn.countAll<number | string | bigint>().as("count")));
  const count = Number(row?.count ?? 0);
  return selection.limit === null ? count : Math.min(count, selection.limit);
}
