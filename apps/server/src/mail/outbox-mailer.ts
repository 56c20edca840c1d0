import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { formatMailAddress, type Mailer } from "./mailer.ts";

export type OutboxMail = {
  id: string;
  to: string;
  from: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
};

/**
 * The development stand-in for SMTP: each mail is stored in the `outbox_mail` table and shown at `/dev/outbox`.
 *
 * @example
 * const mailer = createOutboxMailer({ database, mailFrom: "Atelier <no-reply@atelier.localhost>", clock: () => new Date() });
 */
export function createOutboxMailer(options: { database: AtelierDatabase; mailFrom: string; clock: Clock }): Mailer {
  return {
    kind: "outbox",
    async sendMail(message) {
      try {
        await options.database
          .insertInto("outbox_mail")
          .values({
            id: crypto.randomUUID(),
            to_address: message.to,
            from_address: message.from ?? options.mailFrom,
            reply_to: message.replyTo ? formatMailAddress(message.replyTo) : null,
            subject: message.subject,
            text_body: message.text,
            html_body: message.html ?? null,
            created_at: options.clock().toISOString(),
          })
          .execute();
        return { status: "sent" };
      } catch (error) {
        return { status: "error", error: error instanceof Error ? error : new Error(String(error)) };
      }
    },
  };
}

/**
 * The newest mails of the development outbox first, optionally only those sent to one address.
 *
 * @example
 * const [latestMail] = await listOutboxMails(database, { to: "alice@example.ch" });
 */
export async function listOutboxMails(database: AtelierDatabase, options: { to?: string; limit?: number } = {}): Promise<OutboxMail[]> {
  let query = database.selectFrom("outbox_mail").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(options.limit ?? 100);
  if (options.to?.includes("\u0000")) {
    // No address holds U+0000, and PostgreSQL refuses it in a query.
    return [];
  }
  if (options.to) {
    query = query.where("to_address", "=", options.to);
  }
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    from: row.from_address,
    replyTo: row.reply_to,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    createdAt: row.created_at,
  }));
}
