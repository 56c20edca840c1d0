import pg from "pg";
import { batchPerTurn, FailedCall } from "./turn-batch.ts";

/** One run of a prepared read: its statement's name (the protocol's), its SQL with `$n` parameters, and the values. */
export type PreparedRead = { name: string; sql: string; values: readonly unknown[] };

/** The most reads one round trip carries; they run one after another on one connection. */
const maximumReadsPerRoundTrip = 20;

/** The values as SQL literals, or undefined when one cannot be written as one (a list, a date, text with U+0000). */
function literalsOf(values: readonly unknown[]): string[] | undefined {
  const literals: string[] = [];
  for (const value of values) {
    if (value === null) literals.push("NULL");
    else if (typeof value === "boolean") literals.push(value ? "TRUE" : "FALSE");
    else if (typeof value === "number" && Number.isFinite(value)) literals.push(String(value));
    else if (typeof value === "string" && !value.includes("\u0000")) literals.push(pg.escapeLiteral(value));
    else return undefined;
  }
  return literals;
}

/**
 * Whether a read with these values may go with the others of its turn (`readInTurnBatch`): each value must be written
 * into the SQL as a literal, quoted by node-postgres.
 */
export function canReadInTurnBatch(values: readonly unknown[]): boolean {
  return literalsOf(values) !== undefined;
}

/** A statement PREPAREd in SQL is named apart: the protocol's named statements share the connection's names. */
function preparedInSqlName(read: PreparedRead): string {
  return `${read.name}_t`;
}

/** The statements each connection has PREPAREd in SQL; a connection that is replaced prepares them again. */
const preparedByConnection = new WeakMap<pg.PoolClient, Set<string>>();

function isStatementError(error: unknown): boolean {
  return error instanceof Error && "severity" in error;
}

/** One read alone, bound as before: the protocol's named statement. */
function readAlone(pool: pg.Pool, read: PreparedRead): Promise<pg.QueryResult | FailedCall> {
  return pool.query({ name: read.name, text: read.sql, values: read.values as unknown[] }).catch((error: unknown) => new FailedCall(error));
}

/**
 * The reads on one connection in one simple query (`EXECUTE a(…); EXECUTE b(…)`), after PREPAREing those this
 * connection has not prepared yet (PostgreSQL infers the parameters' types as it does for the protocol's named
 * statements). Answers each read's result in order.
 */
async function readTogether(pool: pg.Pool, reads: readonly PreparedRead[], literals: readonly string[][]): Promise<pg.QueryResult[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    let prepared = preparedByConnection.get(client);
    if (prepared === undefined) {
      prepared = new Set();
      preparedByConnection.set(client, prepared);
    }
    for (const read of reads) {
      if (prepared.has(read.name)) continue;
      await client.query(`PREPARE ${preparedInSqlName(read)} AS ${read.sql}`);
      prepared.add(read.name);
    }
    const text = reads.map((read, index) => `EXECUTE ${preparedInSqlName(read)}${literals[index]?.length ? `(${literals[index].join(", ")})` : ""}`).join("; ");
    const answered = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
    return Array.isArray(answered) ? answered : [answered];
  } catch (error) {
    // A statement's error rolls back the implicit transaction and leaves the connection usable; a dropped one must
    // not go back to the pool.
    if (!isStatementError(error)) broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}

async function readBatch(pool: pg.Pool, reads: readonly PreparedRead[]): Promise<(pg.QueryResult | FailedCall)[]> {
  const literals = reads.map((read) => literalsOf(read.values) ?? []);
  if (reads.length === 1) return [await readAlone(pool, reads[0] as PreparedRead)];
  try {
    return await readTogether(pool, reads, literals);
  } catch {
    // One read failed (or the connection did): the simple query stopped there. Each is read again alone, so that only
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
