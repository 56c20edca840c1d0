import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { readDatabaseLayout, readWriteCounter, type DatabaseLayout } from "./database-snapshot.ts";

// The security suite skips comparing tables while this counter stands still: a write it misses leaves a row behind
// that the next refused request is blamed for.
describe.each(testDatabaseEngines)("given the security suite's write counter on %s", (engine) => {
  let testDatabase: TestDatabase;
  let layout: DatabaseLayout;
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    layout = await readDatabaseLayout(testDatabase);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  const countRequest = () =>
    testDatabase.database
      .insertInto("rate_limit_window")
      .values({ scope: "study-api", client_key: "user:counter", window_start: "2026-03-02T09:00:00.000Z", request_count: 1 })
      .onConflict((conflict) => conflict.columns(["scope", "client_key", "window_start"]).doUpdateSet((expression) => ({ request_count: expression("rate_limit_window.request_count", "+", 1) })))
      .execute();

  it("should move when the rate limit counts a request (an unlogged table on PostgreSQL)", async () => {
    if (engine === "postgresql") expect(layout.unloggedTables).toEqual(["rate_limit_window"]);
    const before = await readWriteCounter(testDatabase, layout);
    await countRequest();
    const afterInsert = await readWriteCounter(testDatabase, layout);
    expect(afterInsert).not.toBe(before);
    await countRequest();
    expect(await readWriteCounter(testDatabase, layout)).not.toBe(afterInsert);
  });

  it("should move at once for a commit that does not wait for the disk", async () => {
    const before = await readWriteCounter(testDatabase, layout);
    await testDatabase.database.transaction().execute(async (transaction) => {
      if (engine === "postgresql") await sql`set local synchronous_commit = off`.execute(transaction);
      await transaction.insertInto("identity_user").values({ id: "counter-user", password_hash: null, is_active: 1, created_at: "2026-03-02T09:00:00.000Z" }).execute();
    });
    expect(await readWriteCounter(testDatabase, layout)).not.toBe(before);
  });
});
