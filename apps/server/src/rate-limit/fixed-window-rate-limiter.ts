import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { prepareQuery } from "../database/prepared-query.ts";
import { postgresPoolOf } from "../database/postgres-pool.ts";
import { runInSharedSqliteTransaction } from "../database/sqlite-group-commit.ts";
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
  const isPostgres = postgresPoolOf(options.database) !== undefined;
  // Every unsafe study call passes here: on SQLite in the transaction shared with the other writes of the turn
  // (decision 0036); on PostgreSQL one upsert of its own (the per-turn batch was withdrawn: 0036's amendment).
  const count = async (clientKey: string, windowStart: string): Promise<number> => {
    if (isPostgres) {
      const counted = await options.database
        .insertInto("rate_limit_window")
        .values({ scope: options.scope, client_key: clientKey, window_start: windowStart, request_count: 1 })
        .onConflict((conflict) => conflict.columns(["scope", "client_key", "window_start"]).doUpdateSet((expression) => ({ request_count: expression("rate_limit_window.request_count", "+", 1) })))
        .returning("request_count")
        .executeTakeFirstOrThrow();
      return Number(counted.request_count);
    }
    const counted = runInSharedSqliteTransaction(options.database, (transaction) => transaction.run(countRequest, options.scope, clientKey, windowStart)) ?? countRequest.execute(options.database, options.scope, clientKey, windowStart);
    const row = (await counted).rows[0];
    if (row === undefined) throw new Error("The rate limit's upsert returned no row.");
    return Number(row.request_count);
  };
  return {
    async registerRequest(clientKey: string): Promise<RateLimitDecision> {
      const now = options.clock().getTime();
      const windowStartMilliseconds = Math.floor(now / options.limit.windowMilliseconds) * options.limit.windowMilliseconds;
      const windowStart = new Date(windowStartMilliseconds).toISOString();
      const requestCount = await count(clientKey, windowStart);
      requestsSincePrune += 1;
      if (requestsSincePrune >= 1_000) {
        requestsSincePrune = 0;
        await options.database.deleteFrom("rate_limit_window").where("window_start", "<", new Date(windowStartMilliseconds - options.limit.windowMilliseconds).toISOString()).execute();
      }
      if (requestCount <= options.limit.maximumRequests) return { status: "allowed" };
      return { status: "limited", retryAfterSeconds: Math.max(1, Math.ceil((windowStartMilliseconds + options.limit.windowMilliseconds - now) / 1_000)) };
    },
  };
}
