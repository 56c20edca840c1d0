import { afterEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { prepareQuery } from "./prepared-query.ts";
import { runInSharedSqliteTransaction } from "./sqlite-group-commit.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "./test-databases.ts";

const countWindows = prepareQuery("test-count-windows", (database, scope: string) =>
  database
    .selectFrom("rate_limit_window")
    .select((expression) => expression.fn.countAll<number | string>().as("count"))
    .where("scope", "=", scope),
);

const insertWindow = prepareQuery("test-insert-window", (database, scope: string, clientKey: string, requestCount: number) =>
  database.insertInto("rate_limit_window").values({ scope, client_key: clientKey, window_start: "2026-03-10T10:00:00.000Z", request_count: requestCount }),
);

/** The windows of a scope; each `shape` is another SQL text. */
const windowsOfScope = (database: TestDatabase["database"], scope: string, shape: number) =>
  database
    .selectFrom("rate_limit_window")
    .select(["client_key", sql.lit(shape).as("shape")])
    .where("scope", "=", scope)
    .orderBy("client_key");

/** Lets the event loop run until `condition` holds (a timer, so a busy loop of immediates cannot starve it). */
async function eventually(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe.each(testDatabaseEngines)("given prepared queries on %s", (engine) => {
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  it("should run with new values each time, on the database and inside a transaction", async () => {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    await insertWindow.execute(database, "scope-a", "client", 1);
    await database.transaction().execute(async (transaction) => {
      await insertWindow.execute(transaction, "scope-a", "other client", 2);
      await insertWindow.execute(transaction, "scope-b", "client", 3);
      expect(Number((await countWindows.execute(transaction, "scope-a")).rows[0]?.count)).toBe(2);
    });
    expect(Number((await countWindows.execute(database, "scope-a")).rows[0]?.count)).toBe(2);
    expect(Number((await countWindows.execute(database, "scope-b")).rows[0]?.count)).toBe(1);
  });

  it("should not read a transaction's rows before it commits, nor write into it", async () => {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    let releaseTransaction = () => {};
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    let inserted = false;
    const transaction = database.transaction().execute(async (open) => {
      await insertWindow.execute(open, "held", "inside", 1);
      inserted = true;
      await held;
      throw new Error("Rolled back on purpose.");
    });
    await eventually(() => inserted);
    // On SQLite the one connection is inside the transaction meanwhile: these must wait for it, not join it.
    const readMeanwhile = countWindows.execute(database, "held");
    const writeMeanwhile = insertWindow.execute(database, "written meanwhile", "outside", 1);
    releaseTransaction();
    await expect(transaction).rejects.toThrow("Rolled back on purpose.");
    expect(Number((await readMeanwhile).rows[0]?.count)).toBe(0);
    await writeMeanwhile;
    expect(Number((await countWindows.execute(database, "held")).rows[0]?.count)).toBe(0);
    expect(Number((await countWindows.execute(database, "written meanwhile")).rows[0]?.count)).toBe(1);
  });
});

describe.runIf(testDatabaseEngines.includes("postgresql"))("given prepared queries on PostgreSQL", () => {
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  it("should keep apart two queries whose long names differ only past PostgreSQL's 63 bytes", async () => {
    testDatabase = await openTestDatabase("postgresql");
    const { database } = testDatabase;
    const longName = "a query whose name is longer than postgresql keeps of an identifier, and then some";
    const first = prepareQuery(`${longName} first`, (built, scope: string) => windowsOfScope(built, scope, 1));
    const second = prepareQuery(`${longName} second`, (built, scope: string) => windowsOfScope(built, scope, 2));
    await insertWindow.execute(database, "scope-a", "client", 1);
    expect((await first.execute(database, "scope-a")).rows).toEqual([{ client_key: "client", shape: 1 }]);
    expect((await second.execute(database, "scope-a")).rows).toEqual([{ client_key: "client", shape: 2 }]);
  });
});

describe("given writes shared by one SQLite transaction per turn of the event loop", () => {
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  it("should commit the writes of one turn together, undo a failing one alone and answer it with its error", async () => {
    testDatabase = await openTestDatabase("sqlite");
    const { database } = testDatabase;
    const write = (clientKey: string) => runInSharedSqliteTransaction(database, (transaction) => transaction.run(insertWindow, "shared", clientKey, 1).numAffectedRows);
    // The second write of "twice" breaks the primary key: only it fails.
    const outcomes = await Promise.allSettled([write("once"), write("twice"), write("twice"), write("thrice")]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    const rows = await database.selectFrom("rate_limit_window").select("client_key").where("scope", "=", "shared").orderBy("client_key").execute();
    expect(rows.map((row) => row.client_key)).toEqual(["once", "thrice", "twice"]);
  });

  it("should wait for a transaction of Kysely's to end before it writes", async () => {
    testDatabase = await openTestDatabase("sqlite");
    const { database } = testDatabase;
    let releaseTransaction = () => {};
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    let inserted = false;
    const transaction = database.transaction().execute(async (open) => {
      await insertWindow.execute(open, "waited", "inside", 1);
      inserted = true;
      await held;
    });
    await eventually(() => inserted);
    let written = false;
    const shared = runInSharedSqliteTransaction(database, (open) => open.run(countWindows, "waited").rows[0]?.count)?.then((count) => {
      written = true;
      return Number(count);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toBe(false);
    releaseTransaction();
    await transaction;
    expect(await shared).toBe(1);
  });

  it("should leave PostgreSQL and transactions to their own ways", async () => {
    testDatabase = await openTestDatabase("sqlite");
    await testDatabase.database.transaction().execute(async (transaction) => {
      expect(runInSharedSqliteTransaction(transaction, () => 1)).toBeUndefined();
    });
  });
});
