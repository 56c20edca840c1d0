import type { Clock } from "../clock.ts";
import type { RateLimitConfiguration } from "../config.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";

export type RateLimitDecision = { status: "allowed" } | { status: "limited"; retryAfterSeconds: number };

/**
 * Counts requests per client address in a sliding window, in the database so that several server processes share it.
 *
 * @example
 * const limiter = createRateLimiter({ database, scope: "contact", limit: { maximumRequests: 5, windowMilliseconds: 600_000 }, clock });
 * if ((await limiter.registerRequest("203.0.113.7")).status === "limited") { ... }
 */
export function createRateLimiter(options: { database: AtelierDatabase; scope: string; limit: RateLimitConfiguration; clock: Clock }) {
  return {
    async registerRequest(clientAddress: string): Promise<RateLimitDecision> {
      const now = options.clock();
      const windowStart = new Date(now.getTime() - options.limit.windowMilliseconds).toISOString();
      // Count and record in one transaction under a lock on this client, so simultaneous requests, in this process or
      // any other sharing the database, cannot all see room for one more.
      return options.database.transaction().execute(async (transaction) => {
        await lockForTheRestOfTransaction(transaction, `rate-limit:${options.scope}:${clientAddress}`);
        // Every client's expired hits of this scope go too, so the table holds only what a window can still count.
        await transaction.deleteFrom("rate_limit_hit").where("scope", "=", options.scope).where("hit_at", "<=", windowStart).execute();
        const hitsInWindow = await transaction
          .selectFrom("rate_limit_hit")
          .select("hit_at")
          .where("scope", "=", options.scope)
          .where("client_address", "=", clientAddress)
          .where("hit_at", ">", windowStart)
          .orderBy("hit_at", "asc")
          .execute();
        const oldestHit = hitsInWindow[0];
        if (hitsInWindow.length >= options.limit.maximumRequests && oldestHit) {
          const freedAt = new Date(oldestHit.hit_at).getTime() + options.limit.windowMilliseconds;
          return { status: "limited" as const, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now.getTime()) / 1_000)) };
        }
        await transaction
          .insertInto("rate_limit_hit")
          .values({ id: crypto.randomUUID(), scope: options.scope, client_address: clientAddress, hit_at: now.toISOString() })
          .execute();
        return { status: "allowed" as const };
      });
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
