import { Hono } from "hono";
import type { AtelierDatabase } from "../database/open-database.ts";
import { escapeHtml } from "../http/escape-html.ts";
import { listOutboxMails } from "./outbox-mailer.ts";

/**
 * `GET /dev/outbox` (JSON) and `GET /dev/outbox/view` (HTML). Only mounted outside production.
 *
 * @example
 * app.route("/dev/outbox", createOutboxRoutes({ database }));
 */
export function createOutboxRoutes(options: { database: AtelierDatabase }): Hono {
  const routes = new Hono();
  routes.get("/", async (c) => {
    const mails = await listOutboxMails(options.database, { to: c.req.query("to") || undefined });
    c.header("Cache-Control", "no-store");
    return c.json({ mails });
  });
  routes.get("/view", async (c) => {
    const mails = await listOutboxMails(options.database, { to: c.req.query("to") || undefined });
    const items = mails
      .map(
        (mail) => `<article>
  <h2>${escapeHtml(mail.subject)}</h2>
  <p><strong>To:</strong> ${escapeHtml(mail.to)} &middot; <strong>From:</strong> ${escapeHtml(mail.from)}${mail.replyTo ? ` &middot; <strong>Reply-To:</strong> ${escapeHtml(mail.replyTo)}` : ""} &middot; <time>${escapeHtml(mail.createdAt)}</time></p>
  <pre>${escapeHtml(mail.text)}</pre>
</article>`,
      )
      .join("\n");
    c.header("Cache-Control", "no-store");
    return c.html(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Development outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}article{border-top:1px solid #ccc;padding:1rem 0}pre{white-space:pre-wrap}</style></head>
<body><h1>Development outbox</h1><p>${mails.length === 0 ? "No mail has been sent yet." : `${mails.length} mail(s), newest first. The HTML bodies are in <a href="/dev/outbox">the JSON list</a>.`}</p>
${items}
</body></html>`);
  });
  return routes;
}
