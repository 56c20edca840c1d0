import nodemailer from "nodemailer";
import type { Mailer } from "./mailer.ts";

/**
 * A mailer that delivers over SMTP with nodemailer.
 *
 * @example
 * const mailer = createSmtpMailer({ smtpUrl: "smtp://user:password@mail.example.ch:587", mailFrom: "Atelier <atelier@example.ch>" });
 */
export function createSmtpMailer(options: { smtpUrl: string; mailFrom: string }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    kind: "smtp",
    async sendMail(message) {
      try {
        await transport.sendMail({
          from: message.from ?? options.mailFrom,
          to: message.to,
          replyTo: message.replyTo,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
        return { status: "sent" };
      } catch (error) {
        return { status: "error", error: error instanceof Error ? error : new Error(String(error)) };
      }
    },
  };
}
