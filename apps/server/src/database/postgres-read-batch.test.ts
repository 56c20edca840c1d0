import { sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { postgresPoolOf } from "./postgres-pool.ts";
import { readInTurnBatch } from "./postgres-read-batch.ts";
import { prepareQuery } from "./prepared-query.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "./test-databases.ts";

const windowOf = prepareQuery("test-batch-window", (database, scope: string, clientKey: string) =>
  database.selectFrom("rate_limit_window").select(["client_key", "request_count"]).where("scope", "=", scope).where("client_key", "=", clientKey),
);

const countOver = prepareQuery("test-batch-count-over", (database, scope: string, minimum: number) =>
  database
    .selectFrom("rate_limit_window")
    .select((expression) => expression.fn.countAll<number | string>().as("count"))
    .where("scope", "=", scope)
    .where("request_count", ">=", minimum),
);

// Fails for a divisor of 0 only: the same statement, another value.
const quotientOf = prepareQuery("test-batch-quotient", (database, scope: string, divisor: number) =>
  database
    .selectFrom("rate_limit_window")
    .select(sql<number>`request_count / ${divisor}`.as("quotient"))
    .where("scope", "=", scope),
);

const insertWindow = prepareQuery("test-batch-insert", (database, scope: string, clientKey: string, requestCount: number) =>
  database.insertInto("rate_limit_window").values({ scope, client_key: clientKey, window_start: "2026-03-10T10:00:00.000Z", request_count: requestCount }),
);

/** Where the queries sent on the pool's connections are written down, while `countingCheckouts` runs. */
let sentQueries: string[] | null = null;
const watchedClients = new WeakSet<pg.PoolClient>();

/** Counts the connections the pool hands out, and lists the queries sent on them, while `work` runs. */
async function countingCheckouts<Result>(pool: pg.Pool, work: () => Promise<Result>): Promise<{ result: Result; checkouts: number; executes: string[] }> {
  let checkouts = 0;
  const executes: string[] = [];
  const onAcquire = (client: pg.PoolClient) => {
    checkouts += 1;
    if (watchedClients.has(client)) return;
    watchedClients.add(client);
    const query = client.query.bind(client) as (...parameters: unknown[]) => unknown;
    (client as unknown as { query: (...parameters: unknown[]) => unknown }).query = (...parameters: unknown[]) => {
      const [first] = parameters;
      sentQueries?.push(typeof first === "string" ? first : String((first as { text?: string }).text ?? ""));
      return query(...parameters);
    };
  };
  pool.on("acquire", onAcquire);
  sentQueries = executes;
  try {
    return { result: await work(), checkouts, executes };
  } finally {
    sentQueries = null;
    pool.off("acquire", onAcquire);
  }
}

// SQLite reads in this process, one statement at a time: only PostgreSQL's reads share round trips.
describe.runIf(testDatabaseEngines.includes("postgresql"))("given prepared reads on PostgreSQL asked for in one turn of the event loop", () => {
  const engine = "postgresql";
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  async function openWithWindows(): Promise<{ database: TestDatabase["database"]; pool: pg.Pool }> {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    await insertWindow.execute(database, "batch", "first", 1);
    await insertWindow.execute(database, "batch", "second", 2);
    await insertWindow.execute(database, "batch", "it's a \\ 'quoted'); drop table rate_limit_window; --", 3);
    const pool = postgresPoolOf(database);
    if (pool === undefined) throw new Error("A PostgreSQL test database has a pool.");
    return { database, pool };
  }

  it("should send them on one connection in one round trip, each answered with its own rows", async () => {
    const { database, pool } = await openWithWindows();
    const quoted = "it's a \\ 'quoted'); drop table rate_limit_window; --";
    const { result, checkouts, executes } = await countingCheckouts(pool, () =>
      Promise.all([windowOf.execute(database, "batch", "first"), windowOf.execute(database, "batch", quoted), countOver.execute(database, "batch", 2), windowOf.execute(database, "batch", "nobody")]),
    );
    expect(result.map((answer) => answer.rows)).toEqual([[{ client_key: "first", request_count: 1 }], [{ client_key: quoted, request_count: 3 }], [{ count: "2" }], []]);
    expect(checkouts).toBe(1);
    expect(executes.filter((text) => text.startsWith("EXECUTE"))).toHaveLength(1);
    expect(executes.find((text) => text.startsWith("EXECUTE"))?.split("; EXECUTE")).toHaveLength(4);
    // The quoted value was a value: the table is still there.
    expect(Number((await countOver.execute(database, "batch", 0)).rows[0]?.count)).toBe(3);
  });

  it("should fail only the read whose own values fail, and answer the others of its round trip", async () => {
    const { database } = await openWithWindows();
    const [first, failing, other] = await Promise.allSettled([quotientOf.execute(database, "batch", 1), quotientOf.execute(database, "batch", 0), windowOf.execute(database, "batch", "second")]);
    expect(first).toMatchObject({ status: "fulfilled", value: { rows: [{ quotient: 1 }, { quotient: 2 }, { quotient: 3 }] } });
    expect(failing).toMatchObject({ status: "rejected", reason: { message: "division by zero" } });
    expect(other).toMatchObject({ status: "fulfilled", value: { rows: [{ client_key: "second", request_count: 2 }] } });
  });

  it("should send alone, bound as before, what cannot go with the others: text with U+0000, a write", async () => {
    const { database, pool } = await openWithWindows();
    const { result, checkouts, executes } = await countingCheckouts(pool, () =>
      Promise.allSettled([windowOf.execute(database, "batch", "first"), windowOf.execute(database, "batch", "nul\u0000inside"), insertWindow.execute(database, "batch", "third", 4), countOver.execute(database, "batch", 1)]),
    );
    expect(result[0]).toMatchObject({ status: "fulfilled", value: { rows: [{ client_key: "first", request_count: 1 }] } });
    // PostgreSQL's own refusal of U+0000 in text, for this read alone.
    expect(result[1]).toMatchObject({ status: "rejected", reason: { message: expect.stringContaining("0x00") } });
    expect(result[2]).toMatchObject({ status: "fulfilled" });
    expect(result[3]).toMatchObject({ status: "fulfilled" });
    expect((await windowOf.execute(database, "batch", "third")).rows).toEqual([{ client_key: "third", request_count: 4 }]);
    // The two reads in one round trip; the read with U+0000 and the write on connections of their own.
    expect(checkouts).toBe(3);
    expect(executes.filter((text) => text.startsWith("EXECUTE"))).toEqual([expect.stringMatching(/^EXECUTE atelier_test_batch_window_\d+_t\('batch', 'first'\); EXECUTE atelier_test_batch_count_over_\d+_t\('batch', 1\)$/u)]);
  });

  it("should see what was committed before the read was asked for", async () => {
    const { database } = await openWithWindows();
    await insertWindow.execute(database, "batch", "late", 5);
    const [late, count] = await Promise.all([windowOf.execute(database, "batch", "late"), countOver.execute(database, "batch", 5)]);
    expect(late.rows).toEqual([{ client_key: "late", request_count: 5 }]);
    expect(count.rows).toEqual([{ count: "1" }]);
  });
});

describe("given a PostgreSQL that takes no connection", () => {
  it("should fail every read of a turn after one attempt at a connection, not once more each alone", async () => {
    // Nothing listens on port 1: each attempt is refused at once.
    const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 2_000 });
    // pg-pool's own query() takes its connection through connect() too, with a callback.
    const connect = pool.connect.bind(pool) as (...parameters: unknown[]) => unknown;
    let attempts = 0;
    (pool as unknown as { connect: (...parameters: unknown[]) => unknown }).connect = (...parameters: unknown[]) => {
      attempts += 1;
      return connect(...parameters);
    };
    try {
      const reads = ["a", "b", "c"].map((value, index) => readInTurnBatch(pool, { name: `atelier_test_unreachable_${index}`, sql: "select $1::text as value", values: [value] }));
      const outcomes = await Promise.allSettled(reads);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(outcomes[0]).toMatchObject({ reason: { code: "ECONNREFUSED" } });
      expect(attempts).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
