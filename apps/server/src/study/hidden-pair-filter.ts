import { PostgresAdapter, sql, type Expression, type Kysely, type SqlBool } from "kysely";
import type { DatabaseSchema } from "../database/schema.ts";

/**
 * The condition every study query puts on a pair: the learner has not hidden it (the table's primary key, learner then
 * pair, answers it). On PostgreSQL a learner who hides no pair at all is found first, once per statement (the index
 * `learner_key, group_id`), so that most learners' queries look up no pair: the lookup per pair was a tenth of a test
 * session's statement there (decision 0069). SQLite keeps the lookup alone: the `or` was not shown to help there.
 */
export function isNotHiddenByLearner(database: Kysely<DatabaseSchema>, learnerKey: string, pairId: Expression<string>) {
  const isHiddenPair = sql<SqlBool>`exists (select 1 from study_hidden_pair where study_hidden_pair.learner_key = ${learnerKey} and study_hidden_pair.pair_id = ${pairId})`;
  if (!(database.getExecutor().adapter instanceof PostgresAdapter)) return sql<SqlBool>`not ${isHiddenPair}`;
  return sql<SqlBool>`(not exists (select 1 from study_hidden_pair as any_hidden where any_hidden.learner_key = ${learnerKey}) or not ${isHiddenPair})`;
}
