import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrateToLatest } from "./migrations.ts";
import { openDatabase, type DatabaseEngine, type OpenedDatabase } from "./open-database.ts";

export const testPostgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * The engines database tests run on: both, unless `SKIP_POSTGRES_TESTS=1` says PostgreSQL is unavailable on purpose.
 * A PostgreSQL that is expected but unreachable fails the test run loudly when the first test opens it.
 */
export const testDatabaseEngines: DatabaseEngine[] = process.env.SKIP_POSTGRES_TESTS === "1" ? ["sqlite"] : ["sqlite", "postgresql"];

export type TestDatabase = OpenedDatabase & { destroy: () => Promise<void>; /** The random schema of a PostgreSQL test database. */ postgresSchema?: string };

/**
 * Opens a migrated, empty database: SQLite in a new temporary folder, or PostgreSQL in a new random schema.
 * `destroy()` closes it and removes the folder or drops the schema.
 *
 * @example
 * const testDatabase = await openTestDatabase("postgresql");
 * afterEach(() => testDatabase.destroy());
 */
export async function openTestDatabase(engine: DatabaseEngine): Promise<TestDatabase> {
  if (engine === "sqlite") {
    const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-server-test-"));
    const opened = openDatabase({ databaseUrl: null, dataDirectory });
    await migrateToLatest(opened.database);
    return {
      ...opened,
      destroy: async () => {
        await opened.close();
        fs.rmSync(dataDirectory, { recursive: true, force: true });
      },
    };
  }
  const schemaName = `atelier_test_${crypto.randomUUID().replaceAll("-", "")}`;
  await runPostgresAdministration(`CREATE SCHEMA ${schemaName}`);
  const opened = openDatabase({ databaseUrl: testPostgresUrl, dataDirectory: "", postgresSearchPath: schemaName });
  await whileTestSchemasStayPut(() => migrateToLatest(opened.database, { postgresSchema: schemaName }));
  return {
    ...opened,
    postgresSchema: schemaName,
    destroy: async () => {
      await opened.close();
      await runPostgresAdministration(`DROP SCHEMA IF EXISTS ${schemaName} CASCADE`, { exclusiveOfIntrospection: true });
    },
  };
}

/** An advisory lock of the test server: shared while a schema's tables are listed, exclusive while one is dropped. */
const testSchemasLockKey = 7_216_016;

/**
 * Runs `work` while no test database's schema is dropped. Kysely's introspection (which the migrator uses to find its
 * table, and the security suite to list the tables) reads every schema of the server and then asks
 * `has_schema_privilege` by name: a schema another test file drops in between fails it with "schema … does not exist".
 */
export async function whileTestSchemasStayPut<Result>(work: () => Promise<Result>): Promise<Result> {
  const client = await connectForAdministration();
  try {
    await client.query("SELECT pg_advisory_lock_shared($1)", [testSchemasLockKey]);
    return await work();
  } finally {
    // Ending the session releases the lock.
    await client.end();
  }
}

async function connectForAdministration(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: testPostgresUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${testPostgresUrl}. Start it, point TEST_DATABASE_URL at one, or set SKIP_POSTGRES_TESTS=1 to run the SQLite tests only.`,
      { cause: error },
    );
  }
  return client;
}

async function runPostgresAdministration(statement: string, options: { exclusiveOfIntrospection?: boolean } = {}): Promise<void> {
  const client = await connectForAdministration();
  try {
    if (options.exclusiveOfIntrospection === true) await client.query("SELECT pg_advisory_lock($1)", [testSchemasLockKey]);
    await client.query(statement);
  } finally {
    await client.end();
  }
}
