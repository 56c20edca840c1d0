export type MailAddress = string | { name: string; address: string };

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: MailAddress;
  /** Defaults to the configured MAIL_FROM. */
  from?: string;
};

export type SendMailResult = { status: "sent" } | { status: "error"; error: Error };

/**
 * Sends e-mail. Never throws for delivery problems: they come back as `{ status: "error" }`.
 *
 * @example
 * const result = await mailer.sendMail({ to: "painter@example.ch", subject: "Hello", text: "Hello" });
 */
export type Mailer = {
  kind: "smtp" | "outbox";
  sendMail: (message: MailMessage) => Promise<SendMailResult>;
};

export function formatMailAddress(address: MailAddress): string {
  return typeof address === "string" ? address : `${JSON.stringify(address.name)} <${address.address}>`;
}
