import { PostgresAdapter, sql, type Kysely, type Transaction } from "kysely";
import { prepareQuery } from "./prepared-query.ts";
import type { DatabaseSchema } from "./schema.ts";

/**
 * Makes the rest of a transaction exclusive for one key (a learner, a rate limit's client), so that a count followed
 * by a write cannot interleave with another request's, in this process or any other sharing the database.
 * PostgreSQL: a transaction-scoped advisory lock on a 64-bit hash of the key, released at commit or rollback.
 * SQLite: nothing to do: one connection per process runs one transaction at a time, and SQLite lets one writer in.
 *
 * @example
 * await database.transaction().execute(async (transaction) => {
 *   await lockForTheRestOfTransaction(transaction, `anonymous-limit:${learnerKey}`);
 *   // count, then write
 * });
 */
export async function lockForTheRestOfTransaction(transaction: Transaction<DatabaseSchema> | Kysely<DatabaseSchema>, key: string): Promise<void> {
  if (!(transaction.getExecutor().adapter instanceof PostgresAdapter)) return;
  await takeAdvisoryLock.execute(transaction, key);
}

const takeAdvisoryLock = prepareQuery("advisory-lock", (database, key: string) => database.selectNoFrom(sql<void>`pg_advisory_xact_lock(hashtextextended(${key}, 0))`.as("locked")));
