import { mergeLearnerProgress } from "@atelier/leitner";
import type { Context } from "hono";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { inTransactionRetryingConflicts } from "../database/transaction-conflicts.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";
import { anonymousLearnerKey, clearLearnerCookie, readLearnerCookie, userLearnerKey, type LearnerCookies } from "./learner.ts";
import { progressLockKey } from "./rating-store.ts";
import { deleteLearnerProgress, groupLockKey, listLearnerGroupIds, listLearnerProgress, writeProgress } from "./study-store.ts";

/**
 * Moves the anonymous learner's progress into the account (spec §7), the higher box winning card by card, and deletes
 * the anonymous records. Returns how many anonymous records there were.
 */
export async function mergeAnonymousProgressIntoAccount(database: AtelierDatabase, clock: Clock, anonymousKey: string, accountKey: string): Promise<number> {
  return inTransactionRetryingConflicts(database, async (transaction) => {
    // Both learners' records are read and written: lock them in a fixed order, as a rating of either would.
    for (const key of [anonymousKey, accountKey].sort()) await lockForTheRestOfTransaction(transaction, progressLockKey(key));
    const anonymousGroupIds = await listLearnerGroupIds(transaction, anonymousKey);
    if (anonymousGroupIds.length === 0) return 0;
    // Owners merge, split and delete their films' pairs, records and all, under each film's lock (decision 0076): taken
    // here too, after the learners' and in order, no pair changes between the read below and the write. Without them,
    // on PostgreSQL, the merge met the owner's edits in deadlocks or wrote records of pairs deleted meanwhile. The
    // anonymous learner's lock keeps new groups out; a film deleted before its lock only takes records away.
    for (const groupId of anonymousGroupIds.sort()) await lockForTheRestOfTransaction(transaction, groupLockKey(groupId));
    const anonymous = await listLearnerProgress(transaction, anonymousKey);
    if (anonymous.length === 0) return 0;
    const account = await listLearnerProgress(transaction, accountKey);
    const groupIdByPairId = new Map([...account, ...anonymous].map((record) => [record.pairId, record.groupId]));
    const anonymousPairIds = new Set(anonymous.map((record) => record.pairId));
    const changed = mergeLearnerProgress(anonymous, account).filter((record) => anonymousPairIds.has(record.pairId));
    await writeProgress(
      transaction,
      accountKey,
      changed.map((record) => ({ ...record, groupId: groupIdByPairId.get(record.pairId) as string })),
      clock().toISOString(),
    );
    await deleteLearnerProgress(transaction, anonymousKey);
    return anonymous.length;
  });
}

/**
 * The merge of this request's anonymous learner (its `learner_id` cookie) into the user's account, and the cookie
 * cleared. Called by the identity service when a sign-in succeeds, so progress is kept however the user signed in.
 */
export async function mergeRequestLearnerIntoAccount(options: { database: AtelierDatabase; clock: Clock; learnerCookies: LearnerCookies }, c: Context, userId: string): Promise<number> {
  const cookie = readLearnerCookie(c, options.learnerCookies);
  if (cookie === null) return 0;
  const merged = await mergeAnonymousProgressIntoAccount(options.database, options.clock, anonymousLearnerKey(cookie.id), userLearnerKey(userId));
  clearLearnerCookie(c, options.learnerCookies.secure);
  return merged;
}
