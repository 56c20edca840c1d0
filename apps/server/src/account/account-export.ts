import { Hono } from "hono";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { getAuthenticatedUser } from "../identity/index.ts";
import { listSecurityEvents } from "./security-events.ts";

export const signInToExportDataMessage = "Please sign in to download your data.";

const isoOrNull = (value: string | null) => value;

/**
 * Everything Atelier keeps about one user, as a person may ask under the Swiss FADP and the GDPR (access,
 * portability): the account and its addresses, sessions, second factors (type, name and dates; never a secret, a
 * hash or a code), third-party accounts, subscriptions, the subtitle groups they own with their pairs, and their study
 * progress, and the security events of the last 180 days. Password hashes, session tokens and provider tokens stay out.
 */
export async function collectAccountExport(database: AtelierDatabase, userId: string, now: Date) {
  const learnerKey = `user:${userId}`;
  const [user, addresses, sessions, authenticators, providerAccounts, subscriptions, groups, progress] = await Promise.all([
    database.selectFrom("identity_user").select(["id", "created_at", "password_hash"]).where("id", "=", userId).executeTakeFirstOrThrow(),
    database.selectFrom("identity_email_address").select(["email", "verified", "is_primary", "created_at"]).where("user_id", "=", userId).orderBy("created_at").execute(),
    database
      .selectFrom("identity_session")
      .select(["client", "ip", "user_agent", "created_at", "last_seen_at", "expires_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    database.selectFrom("identity_authenticator").select(["type", "name", "created_at", "last_used_at"]).where("user_id", "=", userId).orderBy("created_at").execute(),
    database.selectFrom("identity_social_account").select(["provider", "uid", "display", "created_at", "last_login_at"]).where("user_id", "=", userId).orderBy("created_at").execute(),
    database
      .selectFrom("billing_subscription")
      .select(["subscription_id", "status", "plan_key", "amount_in_cents", "current_period_end", "cancel_at_period_end"])
      .where("user_id", "=", userId)
      .execute(),
    database.selectFrom("subtitle_group").select(["id", "name", "is_public", "created_at"]).where("owner_id", "=", userId).orderBy("created_at").execute(),
    database
      .selectFrom("study_progress")
      .select(["group_id", "pair_id", "box", "review_count", "correct_count", "studied_at", "last_reviewed_at", "due_at"])
      .where("learner_key", "=", learnerKey)
      .execute(),
  ]);
  const pairs =
    groups.length === 0
      ? []
      : await database
          .selectFrom("subtitle_pair")
          .select(["group_id", "english", "swedish", "confidence"])
          .where(
            "group_id",
            "in",
            groups.map((group) => group.id),
          )
          .orderBy("group_id")
          .orderBy("position")
          .execute();
  return {
    format: "atelier-account-export/1",
    exported_at: now.toISOString(),
    account: {
      id: user.id,
      created_at: user.created_at,
      has_password: user.password_hash !== null,
      email_addresses: addresses.map((address) => ({ email: address.email, verified: address.verified === 1, primary: address.is_primary === 1, created_at: address.created_at })),
    },
    sessions: sessions.map((session) => ({ ...session })),
    second_factors: authenticators.map((authenticator) => ({ ...authenticator, last_used_at: isoOrNull(authenticator.last_used_at) })),
    third_party_accounts: providerAccounts.map((account) => ({ ...account })),
    subscriptions: subscriptions.map((subscription) => ({
      ...subscription,
      amount_in_cents: subscription.amount_in_cents === null ? null : Number(subscription.amount_in_cents),
      current_period_end: subscription.current_period_end === null ? null : Number(subscription.current_period_end),
      cancel_at_period_end: Number(subscription.cancel_at_period_end) === 1,
    })),
    subtitle_groups: groups.map((group) => ({
      id: group.id,
      name: group.name,
      is_public: group.is_public === 1,
      created_at: group.created_at,
      pairs: pairs.filter((pair) => pair.group_id === group.id).map((pair) => ({ english: pair.english, swedish: pair.swedish, confidence: Number(pair.confidence) })),
    })),
    study_progress: progress.map((record) => ({ ...record, box: Number(record.box), review_count: Number(record.review_count), correct_count: Number(record.correct_count) })),
    security_events: await listSecurityEvents(database, userId, now),
  };
}

export type AccountExport = Awaited<ReturnType<typeof collectAccountExport>>;

/**
 * `GET /api/account/export/`: the signed-in user's data as a JSON attachment named `atelier-<date>.json` (the date of
 * the injected clock).
 *
 * @example
 * app.route("/api/account", createAccountDataRoutes({ database, clock }));
 */
export function createAccountDataRoutes(options: { database: AtelierDatabase; clock: Clock }): Hono {
  const app = new Hono();
  app.get("/export/", async (c) => {
    // Personal data: no cache may keep any answer, the 401 included.
    c.header("Cache-Control", "no-store");
    const user = await getAuthenticatedUser(c);
    if (!user) return c.json({ error: signInToExportDataMessage }, 401);
    const now = options.clock();
    const data = await collectAccountExport(options.database, user.id, now);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Content-Disposition", `attachment; filename="atelier-${now.toISOString().slice(0, 10)}.json"`);
    return c.body(`${JSON.stringify(data, null, 2)}\n`, 200, { "Content-Type": "application/json; charset=utf-8" });
  });
  return app;
}
