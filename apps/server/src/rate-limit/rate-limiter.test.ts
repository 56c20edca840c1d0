import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type AtelierDatabase } from "../database/open-database.ts";
import { openTestDatabase, testDatabaseEngines, testPostgresUrl, type TestDatabase } from "../database/test-databases.ts";
import { createIdentityRateLimits } from "../identity/rate-limits.ts";
import { createFixedWindowRateLimiter } from "./fixed-window-rate-limiter.ts";
import { createRateLimiter } from "./rate-limiter.ts";
import { runInSharedSqliteTransaction } from "../database/sqlite-group-commit.ts";

let testDatabase: TestDatabase;
const now = new Date("2026-03-01T10:00:00.000Z");
const clock = () => now;

describe.each(testDatabaseEngines)("given simultaneous requests against the limits on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should let exactly the limit through when 20 requests of one client arrive at once", async () => {
    const limiter = createRateLimiter({ database: testDatabase.database, scope: "test", limit: { maximumRequests: 5, windowMilliseconds: 60_000 }, clock });
    const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.registerRequest("203.0.113.7")));
    expect(decisions.filter((decision) => decision.status === "allowed")).toHaveLength(5);
    expect(decisions.find((decision) => decision.status === "limited")).toEqual({ status: "limited", retryAfterSeconds: 60 });
  });

  it("should count a busy endpoint's fixed window exactly when 30 requests arrive at once, and start over in the next window", async () => {
    let clockNow = new Date("2026-03-01T10:00:30.000Z");
    const limiter = createFixedWindowRateLimiter({ database: testDatabase.database, scope: "busy", limit: { maximumRequests: 10, windowMilliseconds: 60_000 }, clock: () => clockNow });
    const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.registerRequest("learner-1")));
    expect(decisions.filter((decision) => decision.status === "allowed")).toHaveLength(10);
    expect(decisions.find((decision) => decision.status === "limited")).toEqual({ status: "limited", retryAfterSeconds: 30 });
    expect((await limiter.registerRequest("learner-2")).status).toBe("allowed");
    clockNow = new Date("2026-03-01T10:01:00.000Z");
    expect((await limiter.registerRequest("learner-1")).status).toBe("allowed");
  });

  it("should count each client apart in one turn, whatever its key holds (quotes, backslashes, SQL, letters beyond ASCII)", async () => {
    const limiter = createFixedWindowRateLimiter({ database: testDatabase.database, scope: "odd-keys", limit: { maximumRequests: 2, windowMilliseconds: 60_000 }, clock });
    const keys = ["it's", "back\\slash", "'); drop table rate_limit_window; --", "Åsa Ørsted", "$1 $2::text[]"];
    const decisions = await Promise.all(keys.flatMap((key) => [key, key, key].map((sameKey) => limiter.registerRequest(sameKey))));
    expect(decisions.map((decision) => decision.status)).toEqual(keys.flatMap(() => ["allowed", "allowed", "limited"]));
    const rows = await testDatabase.database.selectFrom("rate_limit_window").select(["client_key", "request_count"]).where("scope", "=", "odd-keys").execute();
    expect(new Map(rows.map((row) => [row.client_key, Number(row.request_count)]))).toEqual(new Map(keys.map((key) => [key, 3])));
  });

  it("should forget the windows before the last one at every thousandth request, counted alone or in a shared commit", async () => {
    let clockNow = new Date("2026-03-01T10:00:30.000Z");
    const database = testDatabase.database;
    const limiter = createFixedWindowRateLimiter({ database, scope: "busy", limit: { maximumRequests: 5_000, windowMilliseconds: 60_000 }, clock: () => clockNow });
    const windowsOf = async () => (await database.selectFrom("rate_limit_window").select(["client_key", "window_start"]).orderBy("window_start").execute()).map((row) => `${row.client_key} ${row.window_start}`);
    // One count in the shared commit where there is one (SQLite), alone elsewhere: the two ways share one prune counter.
    const countOnce = (clientKey: string) => runInSharedSqliteTransaction(database, (transaction) => limiter.registerRequestWithin(transaction, clientKey)) ?? limiter.registerRequest(clientKey);
    await countOnce("early");
    clockNow = new Date("2026-03-01T10:01:30.000Z");
    await limiter.registerRequest("last");
    clockNow = new Date("2026-03-01T10:02:30.000Z");
    await Promise.all(Array.from({ length: 997 }, () => limiter.registerRequest("now")));
    expect(await windowsOf()).toEqual(["early 2026-03-01T10:00:00.000Z", "last 2026-03-01T10:01:00.000Z", "now 2026-03-01T10:02:00.000Z"]);
    await countOnce("now");
    expect(await windowsOf()).toEqual(["last 2026-03-01T10:01:00.000Z", "now 2026-03-01T10:02:00.000Z"]);
  });

  it("should count allauth's failed sign-ins exactly when ten wrong passwords arrive at once", async () => {
    const limits = createIdentityRateLimits({ database: testDatabase.database, clock });
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limits.consume("login_failed", { ip: "203.0.113.7", key: "anna@example.ch" })));
    // login_failed allows 5 per 5 minutes per address.
    expect(decisions.filter((decision) => decision.status === "allowed")).toHaveLength(5);
    expect(decisions.find((decision) => decision.status === "limited")).toEqual({ status: "limited", retryAfterSeconds: 300 });
  });
});

describe.runIf(testDatabaseEngines.includes("postgresql"))("given two server processes' connections to one PostgreSQL database", () => {
  let second: { database: AtelierDatabase; close: () => Promise<void> };
  beforeEach(async () => {
    testDatabase = await openTestDatabase("postgresql");
    second = openDatabase({ databaseUrl: testPostgresUrl, dataDirectory: "", postgresSearchPath: testDatabase.postgresSchema });
  });
  afterEach(async () => {
    await second.close();
    await testDatabase.destroy();
  });

  it("should hold one limit across both", async () => {
    const limit = { maximumRequests: 5, windowMilliseconds: 60_000 };
    const limiters = [testDatabase.database, second.database].map((database) => createRateLimiter({ database, scope: "test", limit, clock }));
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, index) => limiters[index % 2]!.registerRequest("203.0.113.7")));
    expect(decisions.filter((decision) => decision.status === "allowed")).toHaveLength(5);

    const identityLimits = [testDatabase.database, second.database].map((database) => createIdentityRateLimits({ database, clock }));
    const failures = await Promise.all(Array.from({ length: 10 }, (_, index) => identityLimits[index % 2]!.consume("login_failed", { ip: `203.0.113.${index}`, key: "anna@example.ch" })));
    expect(failures.filter((decision) => decision.status === "allowed")).toHaveLength(5);
  });
});
