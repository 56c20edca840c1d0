import { sql, type Expression, type SqlBool } from "kysely";

/** The condition every study query puts on a pair: the learner has not hidden it (the table's primary key, learner then pair, answers it). */
export function isNotHiddenByLearner(learnerKey: string, pairId: Expression<string>) {
  return sql<SqlBool>`not exists (select 1 from study_hidden_pair where study_hidden_pair.learner_key = ${learnerKey} and study_hidden_pair.pair_id = ${pairId})`;
}
