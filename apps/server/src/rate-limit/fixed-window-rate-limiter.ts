import type pg from "pg";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { prepareQuery, type HeldSqliteTransaction } from "../database/prepared-query.ts";
import { postgresPoolOf } from "../database/postgres-pool.ts";
import { runInSharedSqliteTransaction } from "../database/sqlite-group-commit.ts";
import { batchPerTurn } from "../database/turn-batch.ts";
import type { RateLimitDecision } from "./rate-limiter.ts";

export type FixedWindowLimit = { maximumRequests: number; windowMilliseconds: number };

/** Counts one request in its window and answers the window's new count (prepared once: it runs before every rating). */
const countRequest = prepareQuery("rate-limit-window", (database, scope: string, clientKey: string, windowStart: string) =>
  database
    .insertInto("rate_limit_window")
    .values({ scope, client_key: clientKey, window_start: windowStart, request_count: 1 })
    .onConflict((conflict) => conflict.columns(["scope", "client_key", "window_start"]).doUpdateSet((expression) => ({ request_count: expression("rate_limit_window.request_count", "+", 1) })))
    .returning("request_count"),
);

/** Forgets the windows before the last one, of every scope (a window's count is only read while it lasts). */
const deleteWindowsBefore = prepareQuery("rate-limit-windows-before", (database, windowStart: string) => database.deleteFrom("rate_limit_window").where("window_start", "<", windowStart));

/**
 * Counts the requests of one turn of the event loop in one statement on PostgreSQL: each window's requests together
 * (an upsert may change a row once), and each request's count is the window's new count less those after it, as if
 * they had been counted one after another. The windows are locked in the order of their client's key, as the node
 * front's ratings lock theirs (`countedInOwnStatement`), so that the two never wait for each other.
 */
async function countRequestsOnPostgres(pool: pg.Pool, scope: string, requests: readonly WindowRequest[]): Promise<number[]> {
  const windows = new Map<string, { clientKey: string; windowStart: string; requestCount: number }>();
  const positions = requests.map(({ clientKey, windowStart }) => {
    const key = JSON.stringify([clientKey, windowStart]);
    const window = windows.get(key) ?? { clientKey, windowStart, requestCount: 0 };
    windows.set(key, window);
    window.requestCount += 1;
    return { key, position: window.requestCount };
  });
  const counted = [...windows.values()];
  const { rows } = await pool.query<{ client_key: string; window_start: string; request_count: number | string }>({
    name: "atelier_rate_limit_windows",
    text: `INSERT INTO rate_limit_window (scope, client_key, window_start, request_count)
      SELECT $1, client_key, window_start, request_count FROM unnest($2::text[], $3::text[], $4::integer[]) AS counted (client_key, window_start, request_count)
      ORDER BY client_key COLLATE "C", window_start
      ON CONFLICT (scope, client_key, window_start) DO UPDATE SET request_count = rate_limit_window.request_count + excluded.request_count
      RETURNING client_key, window_start, request_count`,
    values: [scope, counted.map((window) => window.clientKey), counted.map((window) => window.windowStart), counted.map((window) => window.requestCount)],
  });
  const totals = new Map(rows.map((row) => [JSON.stringify([row.client_key, row.window_start]), Number(row.request_count)]));
  return positions.map(({ key, position }) => {
    const window = windows.get(key) as { requestCount: number };
    return (totals.get(key) ?? Number.NaN) - window.requestCount + position;
  });
}

type WindowRequest = { clientKey: string; windowStart: string };

/** A request's window, for a statement that adds the request to it itself (`countedInOwnStatement`). */
export type CountedInOwnStatement = {
  scope: string;
  windowStart: string;
  maximumRequests: number;
  /** The decision for the window's new count, as the statement returned it. */
  decide(requestCount: number): Promise<RateLimitDecision>;
};

/**
 * A cheap exact limit for busy endpoints: requests are counted per client in fixed windows, each request one upsert
 * that returns the window's new count (atomic on SQLite and PostgreSQL alike, so several processes share it). A
 * burst at a window's edge may reach twice the limit over a short span, which is fine for limits meant against
 * abuse, not for fairness.
 *
 * @example
 * const limiter = createFixedWindowRateLimiter({ database, scope: "study-api", limit: { maximumRequests: 600, windowMilliseconds: 60_000 }, clock });
 * const decision = await limiter.registerRequest(learnerKey);
 */
export function createFixedWindowRateLimiter(options: { database: AtelierDatabase; scope: string; limit: FixedWindowLimit; clock: Clock }) {
  let requestsSincePrune = 0;
  const pool = postgresPoolOf(options.database);
  // Every unsafe study call passes here: on PostgreSQL one statement a turn of the event loop (`batchPerTurn`), on
  // SQLite in the transaction shared with the other writes of the turn (decision 0036).
  const countOnPostgres = pool === undefined ? undefined : batchPerTurn((requests: readonly WindowRequest[]) => countRequestsOnPostgres(pool, options.scope, requests), { maximumBatchSize: 200 });
  /** The window's new count, from the upsert's one row. */
  const countOf = (rows: readonly { request_count: number | string }[]): number => {
    const row = rows[0];
    if (row === undefined) throw new Error("The rate limit's upsert returned no row.");
    return Number(row.request_count);
  };
  const windowOf = () => {
    const now = options.clock().getTime();
    const windowStartMilliseconds = Math.floor(now / options.limit.windowMilliseconds) * options.limit.windowMilliseconds;
    return { now, windowStartMilliseconds, windowStart: new Date(windowStartMilliseconds).toISOString(), previousWindowStart: new Date(windowStartMilliseconds - options.limit.windowMilliseconds).toISOString() };
  };
  const isPruneDue = () => {
    requestsSincePrune += 1;
    if (requestsSincePrune < 1_000) return false;
    requestsSincePrune = 0;
    return true;
  };
  const decisionOf = (requestCount: number, window: ReturnType<typeof windowOf>): RateLimitDecision => {
    if (requestCount <= options.limit.maximumRequests) return { status: "allowed" };
    return { status: "limited", retryAfterSeconds: Math.max(1, Math.ceil((window.windowStartMilliseconds + options.limit.windowMilliseconds - window.now) / 1_000)) };
  };
  const registerRequestWithin = (transaction: HeldSqliteTransaction, clientKey: string): RateLimitDecision => {
    const window = windowOf();
    const requestCount = countOf(transaction.run(countRequest, options.scope, clientKey, window.windowStart).rows);
    if (isPruneDue()) transaction.run(deleteWindowsBefore, window.previousWindowStart);
    return decisionOf(requestCount, window);
  };
  return {
    async registerRequest(clientKey: string): Promise<RateLimitDecision> {
      const shared = runInSharedSqliteTransaction(options.database, (transaction) => registerRequestWithin(transaction, clientKey));
      if (shared !== undefined) return shared;
      const window = windowOf();
      const requestCount = countOnPostgres !== undefined ? await countOnPostgres({ clientKey, windowStart: window.windowStart }) : countOf((await countRequest.execute(options.database, options.scope, clientKey, window.windowStart)).rows);
      if (isPruneDue()) await deleteWindowsBefore.execute(options.database, window.previousWindowStart);
      return decisionOf(requestCount, window);
    },
    /**
     * Whether a request now would be refused, without counting it: for a caller whose own check costs more than the
     * count (a refused request should cost no more than the refusal). `registerRequest` still decides.
     */
    async wouldRefuse(clientKey: string): Promise<RateLimitDecision> {
      const window = windowOf();
      const row = await options.database
        .selectFrom("rate_limit_window")
        .select("request_count")
        .where("scope", "=", options.scope)
        .where("client_key", "=", clientKey)
        .where("window_start", "=", window.windowStart)
        .executeTakeFirst();
      return decisionOf(Number(row?.request_count ?? 0) + 1, window);
    },
    /**
     * For a caller that counts the request in a statement of its own on PostgreSQL (the node front's rating counts it in
     * the rating's statement): the window to add one to (`scope`, `windowStart`, `maximumRequests`), and `decide`, given
     * the window's new count, answers as `registerRequest` would, forgetting the past windows when it is time to.
     */
    countedInOwnStatement(): CountedInOwnStatement {
      const window = windowOf();
      return {
        scope: options.scope,
        windowStart: window.windowStart,
        maximumRequests: options.limit.maximumRequests,
        async decide(requestCount: number): Promise<RateLimitDecision> {
          if (isPruneDue()) await deleteWindowsBefore.execute(options.database, window.previousWindowStart);
          return decisionOf(requestCount, window);
        },
      };
    },
    /**
     * `registerRequest` as one step of a SQLite transaction the caller holds (`runInSharedSqliteTransaction`), so that
     * the count and the caller's own write share one commit. `registerRequest` itself runs it on SQLite.
     */
    registerRequestWithin,
  };
}
