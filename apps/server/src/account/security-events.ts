import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { composeMail } from "../identity/identity-mail.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { logger } from "../logging/logger.ts";

/** What can happen to an account (issue 18, decision 0026). */
export const securityEventTypes = [
  "signed_in",
  "sign_in_failed",
  "password_set",
  "password_changed",
  "password_reset",
  "email_added",
  "email_removed",
  "email_made_primary",
  "second_factor_added",
  "second_factor_removed",
  "passkey_added",
  "third_party_account_connected",
  "third_party_account_disconnected",
  "recovery_codes_generated",
  "sessions_ended",
] as const;

export type SecurityEventType = (typeof securityEventTypes)[number];

/** Events older than this are deleted (decision 0026; stated in the privacy policy). */
export const securityEventRetentionDays = 180;

function retentionCutoffOf(now: Date): string {
  return new Date(now.getTime() - securityEventRetentionDays * 86_400_000).toISOString();
}

/** What the identity service reports; `method` for sign-ins, `detail` for what changed (address, factor type, provider, count). */
export type SecurityEventReport = {
  userId: string;
  type: SecurityEventType;
  method?: string | null;
  detail?: string | null;
  ipAddress: string;
  userAgent: string;
  /** Where to send the notice mail (the primary address), when the account has one. */
  notifyEmail: string | null;
  now: Date;
};

/** One event as `GET /api/account/security-events/` and the export show it. */
export type SecurityEventView = {
  type: SecurityEventType;
  method: string | null;
  detail: string | null;
  ip_address: string;
  user_agent: string;
  created_at: string;
};

/**
 * The notice mails, for the changes allauth's `ACCOUNT_EMAIL_NOTIFICATIONS` covers with its mfa and socialaccount
 * notifications (password changes are mailed by the identity service itself) and for a sign-in from a browser not seen
 * before.
 */
function noticeOf(report: SecurityEventReport, to: string): MailMessage | null {
  const where = `From ${report.ipAddress}, browser "${report.userAgent || "unknown"}".`;
  const ifNotYou = "If this was not you, change your password at once and check your account's security page.";
  switch (report.type) {
    case "email_added":
      return composeMail(to, "An address was added to your Atelier account", [{ text: `The address ${report.detail ?? ""} was added to your account. ${where}` }, { text: ifNotYou }]);
    case "email_removed":
      return composeMail(to, "An address was removed from your Atelier account", [{ text: `The address ${report.detail ?? ""} was removed from your account. ${where}` }, { text: ifNotYou }]);
    case "email_made_primary":
      return composeMail(to, "Your Atelier account has a new primary address", [{ text: `${report.detail ?? ""} is now the primary address of your account. ${where}` }, { text: ifNotYou }]);
    case "second_factor_added":
    case "passkey_added":
      return composeMail(to, "A second factor was added to your Atelier account", [{ text: `A ${report.detail ?? "second factor"} was added to your account. ${where}` }, { text: ifNotYou }]);
    case "second_factor_removed":
      return composeMail(to, "A second factor was removed from your Atelier account", [{ text: `A ${report.detail ?? "second factor"} was removed from your account. ${where}` }, { text: ifNotYou }]);
    case "third_party_account_connected":
      return composeMail(to, "A third-party account was connected to your Atelier account", [{ text: `An account at ${report.detail ?? "a third-party provider"} was connected to your account: it can now sign in to it. ${where}` }, { text: ifNotYou }]);
    case "third_party_account_disconnected":
      return composeMail(to, "A third-party account was disconnected from your Atelier account", [{ text: `An account at ${report.detail ?? "a third-party provider"} was disconnected from your account: it can no longer sign in to it. ${where}` }, { text: ifNotYou }]);
    case "recovery_codes_generated":
      return composeMail(to, "New recovery codes for your Atelier account", [{ text: `New recovery codes were generated for your account; the earlier ones no longer work. ${where}` }, { text: ifNotYou }]);
    case "signed_in":
      return composeMail(to, "New sign-in to your Atelier account", [{ text: `Your account was signed in to from a browser it had not been used with before. ${where}` }, { text: ifNotYou }]);
    default:
      return null;
  }
}

/**
 * The account's security events: recorded from the identity service's `onSecurityEvent` hook, listed for the user,
 * pruned after `securityEventRetentionDays`.
 *
 * @example
 * const log = createSecurityEventLog({ database, mailer, clock });
 * createIdentityService({ ..., onSecurityEvent: log.record });
 */
export function createSecurityEventLog(options: { database: AtelierDatabase; mailer: Mailer; clock: Clock }) {
  const { database, mailer, clock } = options;

  async function isNewBrowser(report: SecurityEventReport): Promise<boolean> {
    const earlier = await database
      .selectFrom("account_security_event")
      .select(["user_agent"])
      .where("user_id", "=", report.userId)
      .where("type", "=", "signed_in")
      .where("created_at", ">=", retentionCutoffOf(report.now))
      .execute();
    // The first sign-in of an account (its sign-up) is not news to its owner.
    return earlier.length > 0 && !earlier.some((row) => row.user_agent === report.userAgent);
  }

  async function record(report: SecurityEventReport): Promise<void> {
    const mailNewBrowser = report.type === "signed_in" && (await isNewBrowser(report));
    // The clock is frozen in tests and coarse in life: a per-user sequence keeps "newest first" exact.
    const last = await database.selectFrom("account_security_event").select((expression) => expression.fn.max("sequence").as("sequence")).where("user_id", "=", report.userId).executeTakeFirst();
    await database
      .insertInto("account_security_event")
      .values({
        id: crypto.randomUUID(),
        user_id: report.userId,
        sequence: Number(last?.sequence ?? 0) + 1,
        type: report.type,
        method: report.method ?? null,
        detail: report.detail ?? null,
        ip_address: report.ipAddress.slice(0, 100),
        user_agent: report.userAgent.slice(0, 500),
        created_at: report.now.toISOString(),
      })
      .execute();
    await database.deleteFrom("account_security_event").where("user_id", "=", report.userId).where("created_at", "<", retentionCutoffOf(report.now)).execute();
    const notice = report.notifyEmail && (report.type !== "signed_in" || mailNewBrowser) ? noticeOf(report, report.notifyEmail) : null;
    if (notice) {
      const result = await mailer.sendMail(notice);
      if (result.status === "error") {
        logger.error({ err: result.error }, `The security notice "${notice.subject}" could not be sent.`);
      }
    }
  }

  /** The user's events within the retention time, newest first. */
  function listByUser(userId: string): Promise<SecurityEventView[]> {
    return listSecurityEvents(database, userId, clock());
  }

  return { record, listByUser };
}

/** A user's events within the retention time, newest first (the security page and the data export). */
export async function listSecurityEvents(database: AtelierDatabase, userId: string, now: Date): Promise<SecurityEventView[]> {
  const cutoff = retentionCutoffOf(now);
  const rows = await database
    .selectFrom("account_security_event")
    .selectAll()
    .where("user_id", "=", userId)
    .where("created_at", ">=", cutoff)
    .orderBy("sequence", "desc")
    .execute();
  return rows.map((row) => ({ type: row.type as SecurityEventType, method: row.method, detail: row.detail, ip_address: row.ip_address, user_agent: row.user_agent, created_at: row.created_at }));
}

export type SecurityEventLog = ReturnType<typeof createSecurityEventLog>;

/** Deletes the events of every account that are older than the retention time; answers how many went. */
export async function pruneExpiredSecurityEvents(database: AtelierDatabase, now: Date): Promise<number> {
  const result = await database.deleteFrom("account_security_event").where("created_at", "<", retentionCutoffOf(now)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

