import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import type { AtelierDatabase } from "../database/open-database.ts";
import { HttpError } from "../http/http-errors.ts";
import { getAuthenticatedUser, reauthenticationRequiredAnswer, sessionCookieName, signedInHintCookieName } from "../identity/index.ts";
import type { Mailer } from "../mail/mailer.ts";
import { deleteAccount, sendAccountDeletedMail, signInToDeleteAccountMessage } from "./account-deletion.ts";
import { securityEventRetentionDays, type SecurityEventLog } from "./security-events.ts";

export type AccountRoutesOptions = {
  securityEvents: SecurityEventLog;
  database: AtelierDatabase;
  mailer: Mailer;
  secureCookies: boolean;
  /** Ends the user's subscriptions at the billing provider now; throws (a 502) when it cannot be reached. */
  cancelSubscriptions: (userId: string) => Promise<unknown>;
};

/**
 * The account's own data under `/api/account/` (issue 18): what happened to it, and deleting it.
 *
 * @example
 * app.route("/api", createAccountRoutes({ securityEvents, database, mailer, secureCookies, cancelSubscriptions }));
 */
export function createAccountRoutes(options: AccountRoutesOptions) {
  const { securityEvents, database, mailer } = options;
  const app = new Hono();

  app.get("/account/security-events/", async (c) => {
    const user = await getAuthenticatedUser(c);
    c.header("Cache-Control", "no-store");
    if (!user) {
      throw new HttpError(401, "Please sign in to see what happened to your account.");
    }
    return c.json({ retention_days: securityEventRetentionDays, events: await securityEvents.listByUser(user.id) });
  });

  /**
   * `DELETE /api/account/`: needs an authentication younger than allauth's reauthentication timeout (else allauth's
   * reauthentication 401, which the site's reauthentication screens handle). The subscriptions end at the provider
   * first (a failure there deletes nothing; the cancels are idempotent, so trying again is safe), then everything of
   * the user goes in one transaction, the cookies are cleared and a last mail confirms it.
   */
  app.delete("/account/", async (c) => {
    const user = await getAuthenticatedUser(c);
    c.header("Cache-Control", "no-store");
    if (!user) {
      throw new HttpError(401, signInToDeleteAccountMessage);
    }
    const reauthentication = await reauthenticationRequiredAnswer(c);
    if (reauthentication) {
      return c.json(reauthentication.body, 401);
    }
    await options.cancelSubscriptions(user.id);
    const deleted = await deleteAccount(database, user.id);
    deleteCookie(c, sessionCookieName, { path: "/", secure: options.secureCookies });
    deleteCookie(c, signedInHintCookieName, { path: "/", secure: options.secureCookies });
    if (deleted && user.email) await sendAccountDeletedMail(mailer, user.email);
    return c.body(null, 204);
  });

  return app;
}
