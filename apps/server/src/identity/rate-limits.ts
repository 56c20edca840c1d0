import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";

export type RateLimitPer = "ip" | "user" | "key";
export type RateLimitRate = { amount: number; durationSeconds: number; per: RateLimitPer };

/** allauth 65.16.1's `ACCOUNT_RATE_LIMITS` defaults (API.md §7), for the actions this service implements. */
export const identityRateLimits = {
  login: [{ amount: 30, durationSeconds: 60, per: "ip" }],
  login_failed: [
    { amount: 10, durationSeconds: 60, per: "ip" },
    { amount: 5, durationSeconds: 300, per: "key" },
  ],
  signup: [{ amount: 20, durationSeconds: 60, per: "ip" }],
  request_login_code: [
    { amount: 20, durationSeconds: 60, per: "ip" },
    { amount: 3, durationSeconds: 60, per: "key" },
  ],
  confirm_email_by_link: [{ amount: 1, durationSeconds: 180, per: "key" }],
  confirm_email_by_code: [{ amount: 1, durationSeconds: 10, per: "key" }],
  reset_password: [
    { amount: 20, durationSeconds: 60, per: "ip" },
    { amount: 5, durationSeconds: 60, per: "key" },
  ],
  reset_password_from_key: [{ amount: 20, durationSeconds: 60, per: "ip" }],
  change_password: [{ amount: 5, durationSeconds: 60, per: "user" }],
  manage_email: [{ amount: 10, durationSeconds: 60, per: "user" }],
  reauthenticate: [{ amount: 10, durationSeconds: 60, per: "user" }],
} as const satisfies Record<string, readonly RateLimitRate[]>;

export type IdentityRateLimitAction = keyof typeof identityRateLimits;

export type RateLimitSubject = { ip: string; user?: string; key?: string };

/** `allowed` carries the ids of the hits it recorded, so that a successful login can take its own back. */
export type IdentityRateLimitDecision = { status: "allowed"; hitIds: string[] } | { status: "limited"; retryAfterSeconds: number };

/**
 * allauth's sliding-window rate limits, stored in the shared `rate_limit_hit` table (scope `identity:<action>:<per>`).
 * A hit is only recorded when every rate of the action still has room, as allauth's `consume` does.
 *
 * @example
 * const decision = await limits.consume("login", { ip: "203.0.113.7" });
 */
export function createIdentityRateLimits(options: { database: AtelierDatabase; clock: Clock }) {
  const { database } = options;
  return {
    async consume(action: IdentityRateLimitAction, subject: RateLimitSubject): Promise<IdentityRateLimitDecision> {
      const now = options.clock();
      const rates = (identityRateLimits[action] as readonly RateLimitRate[]).flatMap((rate) => {
        const client = subject[rate.per];
        return client === undefined ? [] : [{ rate, client, scope: `identity:${action}:${rate.per}` }];
      });
      // Checked and recorded in one transaction under a lock per (scope, client), taken in a fixed order: simultaneous
      // attempts, in this process or another on the same database, cannot all pass a limit that has room for one.
      return database.transaction().execute(async (transaction) => {
        for (const key of rates.map(({ scope, client }) => `rate-limit:${scope}:${client}`).sort()) await lockForTheRestOfTransaction(transaction, key);
        for (const { rate, client, scope } of rates) {
          const windowStart = new Date(now.getTime() - rate.durationSeconds * 1_000).toISOString();
          const hits = await transaction
            .selectFrom("rate_limit_hit")
            .select("hit_at")
            .where("scope", "=", scope)
            .where("client_address", "=", client)
            .where("hit_at", ">", windowStart)
            .orderBy("hit_at", "asc")
            .execute();
          if (hits.length >= rate.amount) {
            // The window frees a place when the oldest hit in it leaves.
            const freedAt = new Date(hits[hits.length - rate.amount]?.hit_at ?? now.toISOString()).getTime() + rate.durationSeconds * 1_000;
            return { status: "limited" as const, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now.getTime()) / 1_000)) };
          }
        }
        const hitIds: string[] = [];
        for (const { scope, client } of rates) {
          const id = crypto.randomUUID();
          hitIds.push(id);
          await transaction.insertInto("rate_limit_hit").values({ id, scope, client_address: client, hit_at: now.toISOString() }).execute();
        }
        return { status: "allowed" as const, hitIds };
      });
    },

    /** Takes back the hits of one decision (allauth: a successful login does not count as a failed one). */
    async rollback(decision: IdentityRateLimitDecision): Promise<void> {
      if (decision.status === "allowed" && decision.hitIds.length > 0) {
        await database.deleteFrom("rate_limit_hit").where("id", "in", decision.hitIds).execute();
      }
    },

    /** Forgets every hit of an action for one key (a successful password reset clears the failed logins). */
    async clearKey(action: IdentityRateLimitAction, key: string): Promise<void> {
      await database.deleteFrom("rate_limit_hit").where("scope", "=", `identity:${action}:key`).where("client_address", "=", key).execute();
    },

    /** Deletes hits older than the longest window (called now and then, not on every request). */
    async prune(): Promise<void> {
      const oldest = new Date(options.clock().getTime() - 3_600_000).toISOString();
      await database.deleteFrom("rate_limit_hit").where("scope", "like", "identity:%").where("hit_at", "<", oldest).execute();
    },
  };
}

export type IdentityRateLimits = ReturnType<typeof createIdentityRateLimits>;
