import type { Kysely } from "kysely";
import { sqliteConnectionOf, sqliteTransactionOn, type HeldSqliteTransaction } from "./prepared-query.ts";
import type { DatabaseSchema } from "./schema.ts";

type QueuedWork = { work: (transaction: HeldSqliteTransaction) => unknown; resolve: (result: unknown) => void; reject: (error: unknown) => void };

/** The writes waiting for the next shared transaction, per SQLite database. */
const queues = new WeakMap<object, QueuedWork[]>();

function flush(database: Kysely<DatabaseSchema>): void {
  const connection = sqliteConnectionOf(database);
  const queue = queues.get(database);
  if (connection === undefined || queue === undefined || queue.length === 0) return;
  if (connection.inTransaction) {
    // A transaction of Kysely's is open and awaits its next statement: ours may neither join it nor begin inside it.
    // A timer, not an immediate: the event loop may sleep meanwhile instead of spinning.
    setTimeout(flush, 1, database);
    return;
  }
  queues.delete(database);
  const transaction = sqliteTransactionOn(database, connection);
  const outcomes: Array<{ ok: true; result: unknown } | { ok: false; error: unknown }> = [];
  try {
    connection.transaction(() => {
      for (const { work } of queue) {
        // Each write in a savepoint of its own: one that fails is undone alone, and answered with its error.
        connection.exec("SAVEPOINT atelier_shared_write");
        try {
          outcomes.push({ ok: true, result: work(transaction) });
          connection.exec("RELEASE atelier_shared_write");
        } catch (error) {
          connection.exec("ROLLBACK TO atelier_shared_write");
          connection.exec("RELEASE atelier_shared_write");
          outcomes.push({ ok: false, error });
        }
      }
    })();
  } catch (error) {
    // The commit itself failed (another process held the database past busy_timeout, the disk): nothing was written.
    for (const { reject } of queue) reject(error);
    return;
  }
  queue.forEach(({ resolve, reject }, index) => {
    const outcome = outcomes[index];
    if (outcome?.ok === true) resolve(outcome.result);
    else reject(outcome?.error);
  });
}

/**
 * Group commit on SQLite (decision 0036): `work` (synchronous, prepared queries only) runs in one transaction with the
 * other writes queued during the same turn of the event loop, each in a savepoint of its own, and the promise settles
 * once that transaction is committed. A commit appends every page it changed to the log (five for a rating) and
 * costs more than the rating's own statements; fifty ratings at once share one. Writes run in the order queued, each
 * seeing the ones before it, as if one after another. `undefined` on PostgreSQL and for a transaction: the caller
 * goes its own way.
 *
 * @example
 * const outcome = await runInSharedSqliteTransaction(database, (transaction) => transaction.run(countRequest, scope, key, windowStart));
 */
export function runInSharedSqliteTransaction<Result>(executor: object, work: (transaction: HeldSqliteTransaction) => Result): Promise<Result> | undefined {
  if (sqliteConnectionOf(executor) === undefined) return undefined;
  const database = executor as Kysely<DatabaseSchema>;
  return new Promise<Result>((resolve, reject) => {
    let queue = queues.get(database);
    if (queue === undefined) {
      queue = [];
      queues.set(database, queue);
      setImmediate(flush, database);
    }
    queue.push({ work, resolve: resolve as (result: unknown) => void, reject });
  });
}
