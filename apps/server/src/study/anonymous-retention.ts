import { setImmediate as nextTurn } from "node:timers/promises";
import type { AtelierDatabase } from "../database/open-database.ts";
import { inTransactionRetryingConflicts } from "../database/transaction-conflicts.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";
import { learnerCookieMaximumAgeSeconds } from "./learner.ts";
import { progressLockKey } from "./rating-store.ts";

const anonymousKeyPattern = "anonymous:%";

/**
 * An anonymous learner whose last record (a rating, a card marked studied, a hidden pair) is older than this is deleted
 * (decision 0084). The `learner_id` cookie is set once and lasts a year, so it has expired by then in every browser:
 * nobody can reach those records any more, not even to merge them into an account. The month past the cookie's year
 * covers clocks and the moments between a record's write and its answer's arrival.
 */
export const anonymousProgressRetentionDays = learnerCookieMaximumAgeSeconds / 86_400 + 30;

/** How many learners one step reads and deletes, so that no statement holds SQLite's single connection for long. */
const learnersPerStep = 100;

/**
 * Deletes the records and hidden pairs of every anonymous learner unseen for `anonymousProgressRetentionDays` before
 * `now`; answers how many learners went. Walks the learners in key order a hundred at a time, each step its own short
 * transaction, which checks again under the learner's lock that nothing newer arrived since the step read them.
 *
 * @example
 * const forgotten = await pruneForgottenAnonymousLearners(database, clock());
 */
export async function pruneForgottenAnonymousLearners(database: AtelierDatabase, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - anonymousProgressRetentionDays * 86_400_000).toISOString();
  let forgotten = 0;
  for (const table of ["study_progress", "study_hidden_pair"] as const) {
    let after = "";
    for (;;) {
      const learners = await newestActivityOfLearnersAfter(database, table, after);
      const last = learners.at(-1);
      if (last === undefined) break;
      after = last.learner_key;
      const unseen = learners.filter((learner) => learner.newest < cutoff).map((learner) => learner.learner_key);
      if (unseen.length > 0) forgotten += await deleteLearnersUnseenSince(database, unseen, cutoff);
      // Other requests run between two steps.
      await nextTurn();
    }
  }
  return forgotten;
}

async function newestActivityOfLearnersAfter(database: AtelierDatabase, table: "study_progress" | "study_hidden_pair", after: string): Promise<{ learner_key: string; newest: string }[]> {
  const newestColumn = table === "study_progress" ? "updated_at" : "hidden_at";
  return database
    .selectFrom(table)
    .select((expression) => ["learner_key", expression.fn.max(newestColumn).as("newest")])
    .where("learner_key", "like", anonymousKeyPattern)
    .where("learner_key", ">", after)
    .groupBy("learner_key")
    .orderBy("learner_key")
    .limit(learnersPerStep)
    .$castTo<{ learner_key: string; newest: string }>()
    .execute();
}

/** Deletes those of `learnerKeys` with no record and no hidden pair since `cutoff`; answers how many it deleted. */
async function deleteLearnersUnseenSince(database: AtelierDatabase, learnerKeys: string[], cutoff: string): Promise<number> {
  return inTransactionRetryingConflicts(database, async (transaction) => {
    for (const learnerKey of [...learnerKeys].sort()) await lockForTheRestOfTransaction(transaction, progressLockKey(learnerKey));
    const recentlySeen = new Set(
      [
        ...(await transaction.selectFrom("study_progress").select("learner_key").where("learner_key", "in", learnerKeys).where("updated_at", ">=", cutoff).distinct().execute()),
        ...(await transaction.selectFrom("study_hidden_pair").select("learner_key").where("learner_key", "in", learnerKeys).where("hidden_at", ">=", cutoff).distinct().execute()),
      ].map((row) => row.learner_key),
    );
    const unseen = learnerKeys.filter((learnerKey) => !recentlySeen.has(learnerKey));
    if (unseen.length === 0) return 0;
    await transaction.deleteFrom("study_progress").where("learner_key", "in", unseen).execute();
    await transaction.deleteFrom("study_hidden_pair").where("learner_key", "in", unseen).execute();
    return unseen.length;
  });
}
