import { CompiledQuery, type Compilable, type Kysely, type QueryResult, type Transaction } from "kysely";
import type SqliteDatabase from "better-sqlite3";
import { postgresPoolOf } from "./postgres-pool.ts";
import { canReadInTurnBatch, readInTurnBatch } from "./postgres-read-batch.ts";
import type { DatabaseSchema } from "./schema.ts";

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** Stands for the n-th value of a prepared query while it is compiled; replaced by the value at each run. */
class Placeholder {
  constructor(readonly index: number) {}
}

const maximumValues = 20;

/** The one better-sqlite3 connection (with its statement cache) behind each SQLite database `openDatabase` opened. */
const sqliteConnections = new WeakMap<object, SqliteDatabase.Database>();

/** For `openDatabase`: prepared queries on this database may run on its connection directly. */
export function registerSqliteConnection(database: Kysely<DatabaseSchema>, connection: SqliteDatabase.Database): void {
  sqliteConnections.set(database, connection);
}

/**
 * The SQLite connection of a database opened by `openDatabase`, when nothing else is using it: better-sqlite3 runs a
 * statement synchronously, so between two turns of Kysely's connection lock the connection is free, unless a
 * transaction has begun there and awaits its next statement (then Kysely's lock must be waited for, and its
 * uncommitted rows must not be seen). `undefined` on PostgreSQL, for a transaction, or while one is open.
 */
export function freeSqliteConnectionOf(executor: object): SqliteDatabase.Database | undefined {
  // A transaction is another object than its database, so it never has a connection here.
  const connection = sqliteConnections.get(executor);
  return connection !== undefined && !connection.inTransaction ? connection : undefined;
}

/** Runs prepared queries synchronously inside a SQLite transaction (`runInSharedSqliteTransaction`). */
export type HeldSqliteTransaction = {
  run<Values extends readonly unknown[], Row>(query: PreparedQuery<Values, Row>, ...values: Values): QueryResult<Row>;
};

/** Lets `work` run prepared queries on the SQLite connection of `database`, synchronously, inside a transaction it holds. */
export function sqliteTransactionOn(database: Kysely<DatabaseSchema>, connection: SqliteDatabase.Database): HeldSqliteTransaction {
  return { run: (query, ...values) => query.executeOn(database, connection, ...values) };
}

/** The SQLite connection registered for `database` (see `registerSqliteConnection`), free or not. */
export function sqliteConnectionOf(database: object): SqliteDatabase.Database | undefined {
  return sqliteConnections.get(database);
}

export type PreparedQuery<Values extends readonly unknown[], Row> = {
  /** The rows of one run with these values, on the database or inside a transaction. */
  execute(executor: Executor, ...values: Values): Promise<QueryResult<Row>>;
  /** One run on the SQLite connection of `database`, synchronously, by whoever holds it (`sqliteTransactionOn`). */
  executeOn(database: Kysely<DatabaseSchema>, connection: SqliteDatabase.Database, ...values: Values): QueryResult<Row>;
};

let preparedQueryCount = 0;

/** A SELECT that takes no lock (of rows, or advisory): it may share a round trip with other reads (`readInTurnBatch`). */
function isPlainRead(sql: string): boolean {
  return /^\s*select\b/iu.test(sql) && !/\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b|pg_advisory/iu.test(sql);
}

/**
 * A query built and compiled once per SQL dialect and run many times with new values: building and compiling a Kysely
 * query costs more than the indexed read it runs, and the hottest calls (the session, a rating) run a few such reads.
 * `build` receives stand-ins for the values and must use each where the query takes a value (a comparison, a value to
 * insert, a limit or offset; never as an identifier or a list, which are part of the SQL text, nor in its own logic), at
 * most 20 of them, and must name the columns it selects: a prepared `select *` fails on PostgreSQL once a migration
 * adds a column (decision 0036's third amendment). On PostgreSQL the plan is generic (decision 0041): a limit of a
 * value is planned as a tenth of the rows, so where that changes the plan, make it a literal.
 *
 * Outside a transaction, it runs on the driver itself rather than through Kysely (which costs about ten promises and
 * a query compilation a run): on SQLite as a statement prepared once on the free connection, on PostgreSQL as a named
 * statement, which each connection parses and plans once; there a read (a SELECT taking no lock) goes in one round
 * trip with the other reads of its turn of the event loop (`readInTurnBatch`, decision 0047). Inside a transaction it
 * runs through Kysely.
 *
 * @example
 * const findUser = prepareQuery("find-user", (database, userId: string) => database.selectFrom("identity_user").select(["id", "is_active"]).where("id", "=", userId));
 * const { rows } = await findUser.execute(database, "6c1e…");
 */
export function prepareQuery<Values extends readonly unknown[], Row>(
  name: string,
  build: (database: Kysely<DatabaseSchema>, ...values: Values) => Compilable<Row>,
): PreparedQuery<Values, Row> {
  preparedQueryCount += 1;
  // PostgreSQL cuts a name at 63 bytes: two long names alike up to there would be one statement, refused the second time.
  const statementName = `atelier_${name.replaceAll(/[^a-z0-9]+/gu, "_").slice(0, 40)}_${preparedQueryCount}`;
  const compiledByAdapter = new Map<unknown, CompiledQuery<Row>>();
  // Decided once, from the PostgreSQL text (the only dialect with a pool).
  let plainReadOnPostgres: boolean | undefined;
  const compile = (executor: Executor): CompiledQuery<Row> => {
    // The adapter's class stands for the dialect: the same SQL serves every database and transaction of that engine.
    const adapter = executor.getExecutor().adapter;
    let compiled = compiledByAdapter.get(adapter.constructor);
    if (compiled === undefined) {
      const placeholders = Array.from({ length: maximumValues }, (_, index) => new Placeholder(index)) as unknown as Values;
      compiled = build(executor, ...placeholders).compile();
      compiledByAdapter.set(adapter.constructor, compiled);
    }
    return compiled;
  };
  const bind = (compiled: CompiledQuery<Row>, values: Values) => compiled.parameters.map((parameter) => (parameter instanceof Placeholder ? values[parameter.index] : parameter));
  const runOnSqlite = (connection: SqliteDatabase.Database, compiled: CompiledQuery<Row>, values: Values): QueryResult<Row> => {
    const statement = connection.prepare(compiled.sql);
    if (statement.reader) return { rows: statement.all(bind(compiled, values)) as Row[] };
    return { rows: [], numAffectedRows: BigInt(statement.run(bind(compiled, values)).changes) };
  };
  return {
    async execute(executor, ...values) {
      const compiled = compile(executor);
      const sqlite = freeSqliteConnectionOf(executor);
      if (sqlite !== undefined) return runOnSqlite(sqlite, compiled, values);
      const pool = postgresPoolOf(executor);
      if (pool !== undefined) {
        const bound = bind(compiled, values);
        const result =
          (plainReadOnPostgres ??= isPlainRead(compiled.sql)) && canReadInTurnBatch(bound)
            ? await readInTurnBatch(pool, { name: statementName, sql: compiled.sql, values: bound })
            : await pool.query({ name: statementName, text: compiled.sql, values: bound });
        return { rows: result.rows as Row[], ...(result.command === "SELECT" ? {} : { numAffectedRows: BigInt(result.rowCount ?? 0) }) };
      }
      return executor.executeQuery<Row>(CompiledQuery.raw(compiled.sql, bind(compiled, values)) as CompiledQuery<Row>);
    },
    executeOn(database, connection, ...values) {
      return runOnSqlite(connection, compile(database), values);
    },
  };
}

/**
 * A family of prepared queries, one per shape: `queryOf(shape, build)` answers the query prepared the first time that
 * shape was asked for. For queries whose SQL text depends on a few choices (a page size, which branches a selection
 * takes): `shape` must name every choice `build` makes, since a later call's `build` is not run again.
 *
 * @example
 * const statisticsQueries = preparedQueriesPerShape("group-statistics");
 * const query = statisticsQueries(String(pageSize), (database, groupId: string) => pageQuery(database, groupId, pageSize));
 */
export function preparedQueriesPerShape(name: string) {
  const queriesByShape = new Map<string, unknown>();
  return <Values extends readonly unknown[], Row>(shape: string, build: (database: Kysely<DatabaseSchema>, ...values: Values) => Compilable<Row>): PreparedQuery<Values, Row> => {
    let query = queriesByShape.get(shape) as PreparedQuery<Values, Row> | undefined;
    if (query === undefined) {
      query = prepareQuery(`${name} ${shape}`, build);
      queriesByShape.set(shape, query);
    }
    return query;
  };
}
