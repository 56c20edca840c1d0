import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isDatabaseUnavailableError } from "./database-errors.ts";
import { openTestDatabase, testDatabaseEngines, testPostgresUrl, type TestDatabase } from "./test-databases.ts";
import { logger } from "../logging/logger.ts";

async function terminateBackend(processId: number): Promise<void> {
  const administrator = new pg.Client({ connectionString: testPostgresUrl });
  await administrator.connect();
  try {
    await administrator.query("SELECT pg_terminate_backend($1)", [processId]);
  } finally {
    await administrator.end();
  }
}

async function backendProcessIdOf(database: TestDatabase["database"]): Promise<number> {
  const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(database);
  return rows[0]!.pid;
}

// A terminated backend is what PostgreSQL's restart (or an administrator) does to every open connection.
describe.runIf(testDatabaseEngines.includes("postgresql"))("given a PostgreSQL pool whose connection is terminated", () => {
  let testDatabase: TestDatabase;
  beforeEach(async () => {
    testDatabase = await openTestDatabase("postgresql");
  });
  afterEach(async () => {
    await testDatabase.destroy();
    vi.restoreAllMocks();
  });

  it("should drop an idle connection without ending the process, and answer the next query", async () => {
    const consoleWarn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const idleProcessId = await backendProcessIdOf(testDatabase.database);
    await terminateBackend(idleProcessId);
    await vi.waitFor(() => expect(consoleWarn).toHaveBeenCalledWith(expect.stringContaining("An idle PostgreSQL connection failed and was dropped")));
    expect(await backendProcessIdOf(testDatabase.database)).not.toBe(idleProcessId);
  });

  it("should fail a transaction whose connection is terminated with an unavailable error, without ending the process", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const transaction = testDatabase.database.transaction().execute(async (transaction) => {
      await terminateBackend(await backendProcessIdOf(transaction));
      // The client is checked out and idle here while its socket closes: the pool's listener is not attached.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sql`SELECT 1`.execute(transaction);
    });
    const error = await transaction.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isDatabaseUnavailableError(error)).toBe(true);
    expect(await backendProcessIdOf(testDatabase.database)).toEqual(expect.any(Number));
  });
});
