import { FIRST_BOX, MEMORIZED_BOX, type BoxNumber, type CardLearningState, type SessionSelection } from "@atelier/leitner";
import { sql, type Expression, type SelectQueryBuilder, type SqlBool, type Transaction } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
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

type Tables = DatabaseSchema & { p: DatabaseSchema["subtitle_pair"]; sp: DatabaseSchema["study_progress"] };

/** Which pairs this call may look at: the group's, within the window, less the learner's hidden ones. */
type Scope = { learnerKey: string; groupId: string; firstPosition: number | null; lastPosition: number | null };

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
 * The group position of the learner's `index`-th studied pair (1-based; hidden pairs left out), or of the last one
 * when `index` is null or past the end; undefined for a group with nothing to study.
 */
async function positionOfStudiedPair(database: Executor, learnerKey: string, groupId: string, index: number | null): Promise<number | undefined> {
  const studiedPairs = database
    .selectFrom("subtitle_pair as p")
    .select("p.position")
    .where("p.group_id", "=", groupId)
    .where((expression) => isNotHidden(learnerKey, expression.ref("p.id")));
  if (index !== null) {
    const row = await studiedPairs.orderBy("p.position").limit(1).offset(index - 1).executeTakeFirst();
    if (row !== undefined) return Number(row.position);
  }
  const last = await studiedPairs.orderBy("p.position", "desc").limit(1).executeTakeFirst();
  return last === undefined ? undefined : Number(last.position);
}

/** The window as group positions, clamped as the engine's `clampSessionWindow` does; null when nothing is left. */
async function windowScope(database: Executor, learnerKey: string, groupId: string, window: SessionSelection["window"]): Promise<Scope | null> {
  const scope: Scope = { learnerKey, groupId, firstPosition: null, lastPosition: null };
  if (window.startIndex === 1 && window.endIndex === null) return scope;
  const lastPosition = await positionOfStudiedPair(database, learnerKey, groupId, window.endIndex);
  if (lastPosition === undefined) return null;
  const firstPosition = window.startIndex === 1 ? null : await positionOfStudiedPair(database, learnerKey, groupId, window.startIndex);
  return { ...scope, firstPosition: firstPosition === undefined || firstPosition === null ? null : Math.min(firstPosition, lastPosition), lastPosition };
}

/**
 * The candidates: from the group's pairs in position order (index `group_id, position`), each with its record if
 * any, when new cards (no record) may be chosen; otherwise from the learner's records of the group (index
 * `learner_key, group_id, box, due_at`), which are fewer.
 */
function candidates(database: Executor, scope: Scope, drivenBy: "pairs" | "records") {
  const fromPairs = database
    .selectFrom("subtitle_pair as p")
    .leftJoin("study_progress as sp", (join) => join.onRef("sp.pair_id", "=", "p.id").on("sp.learner_key", "=", scope.learnerKey));
  const fromRecords = database
    .selectFrom("study_progress as sp")
    .innerJoin("subtitle_pair as p", "p.id", "sp.pair_id")
    .where("sp.learner_key", "=", scope.learnerKey)
    .where("sp.group_id", "=", scope.groupId);
  let query = (drivenBy === "pairs" ? fromPairs : fromRecords) as unknown as SelectQueryBuilder<Tables, "p" | "sp", object>;
  query = query.where("p.group_id", "=", scope.groupId).where((expression) => isNotHidden(scope.learnerKey, expression.ref("p.id")));
  if (scope.firstPosition !== null) query = query.where("p.position", ">=", scope.firstPosition);
  if (scope.lastPosition !== null) query = query.where("p.position", "<=", scope.lastPosition);
  return query;
}

type SortKeys = { position: number; urgency: number; box: number };

/** Runs one ordered, limited selection and fetches each chosen card's neighbours among the learner's studied pairs. */
async function selectWithContext(
  database: Executor,
  scope: Scope,
  chosen: SelectQueryBuilder<Tables, "p" | "sp", object>,
  order: readonly (keyof SortKeys)[],
  dueAtOrBefore: string,
  limit: number | null,
): Promise<SessionCard[]> {
  let ordered = chosen
    .select(["p.id as id", "p.position as position", "p.english as english", "p.swedish as swedish", "p.confidence as confidence"])
    .select([currentBox.as("box"), needsPracticeNow(dueAtOrBefore).as("urgency")]);
  for (const key of order) ordered = ordered.orderBy(key === "position" ? "p.position" : key);
  if (limit !== null) ordered = ordered.limit(limit);
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
  const rows = await withNeighbours.execute();
  return rows.map((row) => ({
    id: row.id,
    english: row.english,
    swedish: row.swedish,
    current_box: Number(row.box) as BoxNumber,
    confidence: Number(row.confidence),
    context: {
      before: row.before_english === null ? null : { english: row.before_english, swedish: row.before_swedish ?? "" },
      after: row.after_english === null ? null : { english: row.after_english, swedish: row.after_swedish ?? "" },
    },
  }));
}

/**
 * Runs the engine's session selection (`describeSessionSelection`) as SQL over the learner's studied pairs of a
 * group (hidden pairs left out); the same cards, in the same order, as `selectSessionCards` over them in memory,
 * each with the studied pair before and after it as context.
 *
 * Test order runs in two steps so a short session stops early: the cards that need practice now in box 1 (new
 * cards and due box-1 cards) come first and are read in position order until the limit; only if too few, the rest
 * comes from the learner's own records, which are far fewer than the group's pairs.
 *
 * @example
 * const cards = await selectSessionCardsInDatabase(database, learner.key, group.id, describeSessionSelection(config, clock()));
 */
export async function selectSessionCardsInDatabase(database: Executor, learnerKey: string, groupId: string, selection: SessionSelection): Promise<SessionCard[]> {
  const scope = await windowScope(database, learnerKey, groupId, selection.window);
  if (scope === null || selection.limit === 0) return [];
  const inRange = isInLearningStates(selection.learningStates);
  const drivenBy = selection.learningStates.includes("new") ? "pairs" : "records";
  const [firstKey] = selection.order;
  switch (firstKey) {
    case "position":
      return selectWithContext(database, scope, candidates(database, scope, drivenBy).where(inRange), ["position"], selection.dueAtOrBefore, selection.limit);
    case "needs-practice-now": {
      const needsPracticeInFirstBox = sql<SqlBool>`(${needsPracticeNow(selection.dueAtOrBefore)} = 0 and ${currentBox} = ${FIRST_BOX})`;
      const first =
        drivenBy === "pairs"
          ? await selectWithContext(database, scope, candidates(database, scope, "pairs").where(inRange).where(needsPracticeInFirstBox), ["position"], selection.dueAtOrBefore, selection.limit)
          : [];
      const remaining = selection.limit === null ? null : selection.limit - first.length;
      if (remaining === 0) return first;
      let rest = candidates(database, scope, "records").where(inRange);
      if (drivenBy === "pairs") rest = rest.where(sql<SqlBool>`not ${needsPracticeInFirstBox}`);
      return [...first, ...(await selectWithContext(database, scope, rest, ["urgency", "box", "position"], selection.dueAtOrBefore, remaining))];
    }
    default:
      return firstKey satisfies never;
  }
}
