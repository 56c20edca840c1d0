import { Hono } from "hono";
import { HttpError } from "../http/http-errors.ts";
import { getAuthenticatedUser } from "../identity/index.ts";
import { securityEventRetentionDays, type SecurityEventLog } from "./security-events.ts";

/**
 * The account's own data under `/api/account/` (issue 18): what happened to it.
 *
 * @example
 * app.route("/api/account", createAccountRoutes({ securityEvents }));
 */
export function createAccountRoutes(options: { securityEvents: SecurityEventLog }) {
  const { securityEvents } = options;
  const app = new Hono();

  app.get("/security-events/", async (c) => {
    const user = await getAuthenticatedUser(c);
    c.header("Cache-Control", "no-store");
    if (!user) {
      throw new HttpError(401, "Please sign in to see what happened to your account.");
    }
    return c.json({ retention_days: securityEventRetentionDays, events: await securityEvents.listByUser(user.id) });
  });

  return app;
}
