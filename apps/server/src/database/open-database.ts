import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { DatabaseSchema } from "./schema.ts";
import { logger } from "../logging/logger.ts";
import { registerPostgresPool } from "./postgres-pool.ts";
import { registerSqliteConnection } from "./prepared-query.ts";
import { startSqliteCheckpointer } from "./sqlite-checkpointer.ts";

export type DatabaseEngine = "sqlite" | "postgresql";

export type AtelierDatabase = Kysely<DatabaseSchema>;

export type OpenedDatabase = {
  database: AtelierDatabase;
  engine: DatabaseEngine;
  /** A human-readable location for logs, without passwords. */
  location: string;
  close: () => Promise<void>;
};

export const sqliteFileName = "atelier.sqlite";

/** How long a request waits for a PostgreSQL connection before failing (the server is down or unreachable). */
export const postgresConnectionTimeoutMilliseconds = 10_000;

/**
 * Opens PostgreSQL when `databaseUrl` is set, otherwise SQLite at `<dataDirectory>/atelier.sqlite`.
 *
 * @example
 * const { database, close } = openDatabase({ databaseUrl: null, dataDirectory: "/tmp/atelier" });
 */
export function openDatabase(options: { databaseUrl: string | null; dataDirectory: string; postgresSearchPath?: string }): OpenedDatabase {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // Without a limit, a checkout waits forever for a server that drops packets; with it, the request fails (503).
      connectionTimeoutMillis: postgresConnectionTimeoutMilliseconds,
      // Named statements (`prepareQuery`) are indexed lookups whose best plan does not depend on the values: left to
      // the default, PostgreSQL planned the session read anew at every run (0.17 of its 0.2 ms). Unnamed statements
      // are planned at each run whatever this says.
      options: [`-c plan_cache_mode=force_generic_plan`, ...(options.postgresSearchPath ? [`-c search_path=${options.postgresSearchPath}`] : [])].join(" "),
    });
    // node-postgres emits `error` on a client whose connection drops (PostgreSQL restarted, a backend terminated),
    // on the pool for idle clients and on the client itself while checked out; unheard, either ends the process.
    // The query in progress fails on its own and is answered 503; the broken client is discarded.
    pool.on("error", (error) => logger.warn(`An idle PostgreSQL connection failed and was dropped: ${error.message}`));
    pool.on("connect", (client) => client.on("error", () => {}));
    const database = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    registerPostgresPool(database, pool);
    const url = new URL(options.databaseUrl);
    url.password = "";
    return { database, engine: "postgresql", location: url.toString(), close: () => database.destroy() };
  }
  fs.mkdirSync(options.dataDirectory, { recursive: true });
  const filePath = path.join(options.dataDirectory, sqliteFileName);
  const sqlite = new SqliteDatabase(filePath);
  // WAL lets readers proceed while a write is in progress; busy_timeout waits instead of failing under a second process.
  sqlite.pragma("journal_mode = WAL");
  // In WAL mode NORMAL syncs the log at checkpoints, not at every commit (decision 0036): an fsync took 1–3 ms here,
  // more than a whole rating. A crash of the process loses nothing; a power cut may lose the last commits, never
  // the database.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  // 64 MiB of pages kept (2 MiB by default): a study group's records and pairs stay in memory between requests
  // (ratings 5–8 % faster in the study bench); filled only as pages are read.
  sqlite.pragma("cache_size = -65536");
  const cached = withStatementCache(sqlite);
  const database = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: cached }) });
  registerSqliteConnection(database, cached);
  const checkpointer = startSqliteCheckpointer(sqlite, filePath);
  return {
    database,
    engine: "sqlite",
    location: filePath,
    close: async () => {
      // The checkpointer's connection closes first, so the server's, the last, checkpoints what is left.
      await checkpointer.stop();
      await database.destroy();
    },
  };
}

/** Prepared statements kept per SQL text; the queries of a server are few, so the cache stays small. */
const maximumCachedStatements = 500;

/**
 * Kysely's SQLite driver prepares every query anew, which is a third of the cost of a small read. better-sqlite3
 * statements are reusable (the driver is synchronous, so one statement is never used by two queries at once), so
 * the database handed to Kysely returns the statement prepared the first time for the same SQL.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          let statement = statements.get(sql);
          if (!statement) {
            if (statements.size >= maximumCachedStatements) statements.clear();
            statement = target.prepare(sql);
            statements.set(sql, statement);
          }
          return statement;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
