import { escapeHtml } from "../http/escape-html.ts";
import type { MailMessage } from "../mail/mailer.ts";

/**
 * The e-mail that brings a contact message to the painter; replying answers the visitor.
 *
 * @example
 * await mailer.sendMail(createContactMail({ name, email, message, recipient: "painter@example.ch", receivedAt: new Date() }));
 */
export function createContactMail(contact: { name: string; email: string; message: string; recipient: string; receivedAt: Date }): MailMessage {
  const receivedAt = contact.receivedAt.toISOString().replace("T", " ").slice(0, 16) + " UTC";
  return {
    to: contact.recipient,
    replyTo: { name: contact.name, address: contact.email },
    subject: `New message from ${contact.name.replace(/\s+/g, " ")} via the contact form`,
    text: `${contact.name} <${contact.email}> wrote on ${receivedAt}:\n\n${contact.message}\n\nReply to this e-mail to answer ${contact.name}.\n`,
    html: `<!doctype html>
<html lang="en"><body style="font-family:Georgia,serif;line-height:1.5">
<p><strong>${escapeHtml(contact.name)}</strong> &lt;<a href="mailto:${escapeHtml(contact.email)}">${escapeHtml(contact.email)}</a>&gt; wrote on ${escapeHtml(receivedAt)}:</p>
<blockquote style="white-space:pre-wrap;border-left:3px solid #ccc;margin:0;padding-left:1em">${escapeHtml(contact.message)}</blockquote>
<p>Reply to this e-mail to answer ${escapeHtml(contact.name)}.</p>
</body></html>`,
  };
}
