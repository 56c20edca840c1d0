import pg from "pg";

/** A statement PREPAREd in SQL on each connection the first time it runs there (a batch of statements binds no values). */
export type SessionPreparedStatement = { name: string; parameterTypes: readonly string[]; sql: string };

export type LiteralValue = string | number | boolean | null;

/** Values sent as one typed array, `ARRAY[…]::type[]`: a column of a batch for a statement that `unnest`s its arrays. */
export type LiteralArray = { elements: readonly (string | number | null)[]; elementType: "text" | "integer" };

/** The statements each connection has prepared; a connection that is replaced prepares them again. */
const preparedByConnection = new WeakMap<pg.PoolClient, Set<string>>();

/** Whether `value` can be written into SQL as a literal by `toLiteral`: text without U+0000, a finite number, a boolean, null. */
export function isLiteralValue(value: unknown): value is LiteralValue {
  if (value === null || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "string" && !value.includes("\u0000");
}

/** The only characters node-postgres' `escapeLiteral` changes: it doubles them (and marks a backslash's literal `E`). */
const charactersToEscape = /['\\]/;

/**
 * A value as an SQL literal, quoted by node-postgres. Text without a quote or backslash is only wrapped in quotes,
 * which is what `escapeLiteral` answers for it: its loop builds the literal a character at a time, the largest
 * allocation of a PostgreSQL study read (about 30 KB for the 25 values of a test session's cards).
 */
export function toLiteral(value: LiteralValue | LiteralArray): string {
  if (value === null) return "NULL";
  if (typeof value === "object") return `ARRAY[${value.elements.map(toLiteral).join(", ")}]::${value.elementType}[]`;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${value} cannot be sent to PostgreSQL as a number.`);
    return String(value);
  }
  // PostgreSQL cannot hold U+0000 in text; callers refuse such values before they reach a query.
  if (value.includes("\u0000")) throw new TypeError("A value sent to PostgreSQL contains U+0000.");
  return charactersToEscape.test(value) ? pg.escapeLiteral(value) : `'${value}'`;
}

/**
 * Checks out a connection, PREPAREs there those of `statements` it has not prepared yet (without parameter types,
 * PostgreSQL infers them as for the protocol's named statements), and runs `work` on it (`onCheckedOut` is told once
 * the pool has handed out the connection). A statement's own error
 * leaves the connection as it was (the implicit transaction is rolled back); a dropped connection does not go back
 * to the pool.
 */
export async function onConnectionWithPrepared<Result>(
  pool: pg.Pool,
  statements: readonly SessionPreparedStatement[],
  work: (client: pg.PoolClient) => Promise<Result>,
  options: { onCheckedOut?: () => void } = {},
): Promise<Result> {
  const client = await pool.connect();
  options.onCheckedOut?.();
  let broken: Error | undefined;
  try {
    let prepared = preparedByConnection.get(client);
    if (prepared === undefined) {
      prepared = new Set();
      preparedByConnection.set(client, prepared);
    }
    for (const statement of statements) {
      if (prepared.has(statement.name)) continue;
      const parameterTypes = statement.parameterTypes.length === 0 ? "" : ` (${statement.parameterTypes.join(", ")})`;
      await client.query(`PREPARE ${statement.name}${parameterTypes} AS ${statement.sql}`);
      prepared.add(statement.name);
    }
    return await work(client);
  } catch (error) {
    if (!(error instanceof Error && "severity" in error)) broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Runs a prepared statement once for each list of values, as one transaction, in one round trip, after taking the
 * transaction locks of `lockKeys` (in sorted order, as every taker of several does, so that two never wait for each
 * other): the locks and the statements go as one simple query, which PostgreSQL runs as one implicit transaction,
 * each statement with a snapshot taken when it starts, so each sees everything committed before the locks were
 * granted and what the ones before it wrote; an error rolls the whole back. The locks are therefore held for the
 * statements alone, never across a round trip to this process, which under load waits for its turn in a busy event
 * loop. A simple query binds no values: they go as literals quoted by node-postgres to an `EXECUTE` of the
 * statement, which each connection prepares once. `settings` are the transaction's own (`set_config(…, true)`), set
 * before the locks. Answers the rows of each run, in order.
 *
 * @example
 * const [rows] = await executeInOneRoundTrip(pool, rateStatement, [[learnerKey, pairId]], { lockKeys: [`study-progress:${learnerKey}`], settings: { synchronous_commit: "off" } });
 */
export async function executeInOneRoundTrip<Row>(
  pool: pg.Pool,
  statement: SessionPreparedStatement,
  valueLists: readonly (readonly (LiteralValue | LiteralArray)[])[],
  options: { lockKeys?: readonly string[]; settings?: Readonly<Record<string, string>> },
): Promise<Row[][]> {
  return onConnectionWithPrepared(pool, [statement], async (client) => {
    const settings = Object.entries(options.settings ?? {}).map(([name, value]) => `set_config(${toLiteral(name)}, ${toLiteral(value)}, true)`);
    const statements = [
      ...(settings.length === 0 ? [] : [`SELECT ${settings.join(", ")}`]),
      ...[...new Set(options.lockKeys ?? [])].sort().map((key) => `SELECT pg_advisory_xact_lock(hashtextextended(${toLiteral(key)}, 0))`),
      ...valueLists.map((values) => `EXECUTE ${statement.name}${values.length === 0 ? "" : `(${values.map(toLiteral).join(", ")})`}`),
    ];
    const answered = (await client.query(statements.join("; "))) as unknown as pg.QueryResult | pg.QueryResult[];
    const results = Array.isArray(answered) ? answered : [answered];
    return results.slice(results.length - valueLists.length).map((result) => result.rows as Row[]);
  });
}
