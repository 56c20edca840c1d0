import type { Kysely, Transaction } from "kysely";
import { errorChainOf } from "./database-errors.ts";
import type { DatabaseSchema } from "./schema.ts";

/** PostgreSQL's `deadlock_detected` and `serialization_failure`: the transaction was rolled back and may run again. */
const conflictCodes = new Set(["40P01", "40001"]);

export const transactionConflictMessage = "Another change to the same cards met this one. Please try again.";

/** How many times a transaction that lost a conflict runs in all before its error is answered (503, `Retry-After`). */
export const transactionConflictAttempts = 4;

/**
 * Whether PostgreSQL rolled the transaction back to break a deadlock (or a serialization conflict): nothing it wrote
 * stays, and running it again is PostgreSQL's own advice. Looks through `cause`s, as the pool wraps some errors.
 *
 * @example
 * if (isTransactionConflict(error)) return runAgain();
 */
export function isTransactionConflict(error: unknown): boolean {
  return errorChainOf(error).some((candidate) => {
    const code = (candidate as { code?: unknown }).code;
    return typeof code === "string" && conflictCodes.has(code);
  });
}

/**
 * Runs `run` again when PostgreSQL chose it as a deadlock's victim, up to `transactionConflictAttempts` times in all.
 * `run` must be a whole transaction (everything it wrote was rolled back) whose reads come again on each try.
 *
 * @example
 * await retryTransactionConflicts(() => database.transaction().execute(async (transaction) => { … }));
 */
export async function retryTransactionConflicts<Result>(run: () => Promise<Result>): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= transactionConflictAttempts || !isTransactionConflict(error)) throw error;
    }
  }
}

/**
 * A transaction of `database`, run again when it loses a deadlock (`retryTransactionConflicts`). For the writes that lock
 * many rows while ratings lock theirs in another order: a film's deletion, its owner's edits, Mark as Studied, Reset,
 * the sign-in's merge, an account's deletion (decision 0081).
 *
 * @example
 * await inTransactionRetryingConflicts(database, async (transaction) => { await lockForTheRestOfTransaction(transaction, key); … });
 */
export function inTransactionRetryingConflicts<Result>(database: Kysely<DatabaseSchema>, body: (transaction: Transaction<DatabaseSchema>) => Promise<Result>): Promise<Result> {
  return retryTransactionConflicts(() => database.transaction().execute(body));
}
