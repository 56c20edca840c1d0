import type pg from "pg";
import { isLiteralValue, onConnectionWithPrepared, toLiteral, type LiteralValue, type SessionPreparedStatement } from "./postgres-one-round-trip.ts";
import { batchPerTurn, FailedCall } from "./turn-batch.ts";

/** One run of a prepared read: its statement's name (the protocol's), its SQL with `$n` parameters, and the values. */
export type PreparedRead = { name: string; sql: string; values: readonly unknown[] };

/** The most reads one round trip carries; they run one after another on one connection. */
const maximumReadsPerRoundTrip = 20;

/**
 * Whether a read with these values may go with the others of its turn (`readInTurnBatch`): each value must be written
 * into the SQL as a literal (text without U+0000, a finite number, a boolean, null), quoted by node-postgres.
 */
export function canReadInTurnBatch(values: readonly unknown[]): values is readonly LiteralValue[] {
  return values.every(isLiteralValue);
}

/** A read's statement as PREPAREd in SQL, named apart: the protocol's named statements share the connection's names. */
function preparedInSql(read: PreparedRead): SessionPreparedStatement {
  return { name: `${read.name}_t`, parameterTypes: [], sql: read.sql };
}

/** One read alone, bound as before: the protocol's named statement. */
function readAlone(pool: pg.Pool, read: PreparedRead): Promise<pg.QueryResult | FailedCall> {
  return pool.query({ name: read.name, text: read.sql, values: read.values as unknown[] }).catch((error: unknown) => new FailedCall(error));
}

/** The reads on one connection in one simple query (`EXECUTE a(…); EXECUTE b(…)`); each read's result, in order. */
async function readTogether(pool: pg.Pool, reads: readonly PreparedRead[], onCheckedOut: () => void): Promise<pg.QueryResult[]> {
  const statements = reads.map(preparedInSql);
  const executeEach = reads.map((read, index) => {
    const values = read.values as readonly LiteralValue[];
    return `EXECUTE ${statements[index]?.name}${values.length === 0 ? "" : `(${values.map(toLiteral).join(", ")})`}`;
  });
  const readAll = async (client: pg.PoolClient) => {
    const answered = (await client.query(executeEach.join("; "))) as unknown as pg.QueryResult | pg.QueryResult[];
    return Array.isArray(answered) ? answered : [answered];
  };
  return onConnectionWithPrepared(pool, statements, readAll, { onCheckedOut });
}

async function readBatch(pool: pg.Pool, reads: readonly PreparedRead[]): Promise<(pg.QueryResult | FailedCall)[]> {
  if (reads.length === 1) return [await readAlone(pool, reads[0] as PreparedRead)];
  let checkedOut = false;
  try {
    return await readTogether(pool, reads, () => (checkedOut = true));
  } catch (error) {
    // No connection within the pool's time limit (the database is down or unreachable): alone, each read would wait
    // as long again. Every read of the batch fails as it would have alone.
    if (!checkedOut) return reads.map(() => new FailedCall(error));
    // One read failed, or the connection did: the simple query stopped there. Each is read again alone, so that only
    // a read's own error reaches its caller; reads have no effect to repeat.
    return Promise.all(reads.map((read) => readAlone(pool, read)));
  }
}

const batchers = new WeakMap<pg.Pool, (read: PreparedRead) => Promise<pg.QueryResult>>();

/**
 * Runs a prepared read (a SELECT, outside any transaction) with the other reads asked for in this turn of the event
 * loop (`batchPerTurn`), up to 20 of them, on one connection in one round trip (decision 0047). Under load, the
 * requests of a turn took a connection each and queued for the pool's ten: 200 learners on PostgreSQL kept 13 reads
 * waiting at the median and 136 at the 90th percentile. Each read takes its own snapshot when it starts, after every
 * read of its batch was asked for, so it sees what it would have seen alone. The values go into the SQL as literals
 * quoted by node-postgres (`canReadInTurnBatch` says whether they can); each connection PREPAREs a statement once.
 *
 * @example
 * const result = canReadInTurnBatch(values) ? await readInTurnBatch(pool, { name, sql, values }) : await pool.query({ name, text: sql, values });
 */
export function readInTurnBatch(pool: pg.Pool, read: PreparedRead): Promise<pg.QueryResult> {
  let batcher = batchers.get(pool);
  if (batcher === undefined) {
    batcher = batchPerTurn((reads: readonly PreparedRead[]) => readBatch(pool, reads), { maximumBatchSize: maximumReadsPerRoundTrip });
    batchers.set(pool, batcher);
  }
  return batcher(read);
}
