import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { DatabaseSchema } from "./schema.ts";
import { logger } from "../logging/logger.ts";
import { registerDatabaseLocation, runBeforeCloseHooks, type DatabaseLocation } from "./database-location.ts";
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
export function openDatabase(options: DatabaseLocation): OpenedDatabase {
  const opened = openAtLocation(options);
  registerDatabaseLocation(opened.database, options);
  const closeConnections = opened.close;
  return {
    ...opened,
    close: async () => {
      await runBeforeCloseHooks(opened.database);
      await closeConnections();
    },
  };
}

/**
 * A second way into a database that `openDatabase` opened, for a worker thread that only reads (decision 0077): SQLite's
 * file opened read-only, without a checkpointer of its own; PostgreSQL through a pool of two connections.
 *
 * @example
 * const { database, close } = openDatabaseForReading(databaseLocationOf(server.database));
 */
export function openDatabaseForReading(location: DatabaseLocation): Pick<OpenedDatabase, "database" | "engine" | "close"> {
  if (location.databaseUrl) return openPostgres(location.databaseUrl, location.postgresSearchPath, 2);
  const sqlite = new SqliteDatabase(path.join(location.dataDirectory, sqliteFileName), { readonly: true, fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("cache_size = -65536");
  const cached = withStatementCache(sqlite);
  const database = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: cached }) });
  registerSqliteConnection(database, cached);
  return { database, engine: "sqlite", close: () => database.destroy() };
}

function openPostgres(databaseUrl: string, postgresSearchPath: string | undefined, maximumConnections: number): Pick<OpenedDatabase, "database" | "engine" | "close"> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: maximumConnections,
    // Without a limit, a checkout waits forever for a server that drops packets; with it, the request fails (503).
    connectionTimeoutMillis: postgresConnectionTimeoutMilliseconds,
    // Named statements (`prepareQuery`) are indexed lookups whose best plan does not depend on the values: left to
    // the default, PostgreSQL planned the session read anew at every run (0.17 of its 0.2 ms). Unnamed statements
    // are planned at each run whatever this says.
    options: [`-c plan_cache_mode=force_generic_plan`, ...(postgresSearchPath ? [`-c search_path=${postgresSearchPath}`] : [])].join(" "),
  });
  // node-postgres emits `error` on a client whose connection drops (PostgreSQL restarted, a backend terminated),
  // on the pool for idle clients and on the client itself while checked out; unheard, either ends the process.
  // The query in progress fails on its own and is answered 503; the broken client is discarded.
  pool.on("error", (error) => logger.warn(`An idle PostgreSQL connection failed and was dropped: ${error.message}`));
  pool.on("connect", (client) => client.on("error", () => {}));
  const database = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  registerPostgresPool(database, pool);
  return { database, engine: "postgresql", close: () => database.destroy() };
}

function openAtLocation(options: DatabaseLocation): OpenedDatabase {
  if (options.databaseUrl) {
    const url = new URL(options.databaseUrl);
    url.password = "";
    return { ...openPostgres(options.databaseUrl, options.postgresSearchPath, 10), location: url.toString() };
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
