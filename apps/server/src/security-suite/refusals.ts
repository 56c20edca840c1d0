import type { IgnoredColumns } from "./database-snapshot.ts";

/**
 * What a refused request may still write, and why:
 * - `rate_limit_hit`, `rate_limit_window`: counting refused attempts (failed logins, contact messages, signups) is what a rate limit is for;
 * - the session's `ip`, `user_agent` and `last_seen_at`: allauth's session tracking records every request's client;
 * - `identity_change_count` (SQLite): the triggers count that session write too (decision 0052);
 * - `account_security_event`: a refused password sign-in is the "failed sign-in" its owner is shown (decision 0026);
 *   every other event is reported only after its change succeeded.
 */
export const bookkeepingColumns: IgnoredColumns = { rate_limit_hit: "all", rate_limit_window: "all", identity_session: ["ip", "user_agent", "last_seen_at"], identity_change_count: "all", account_security_event: "all" };

/**
 * Whether an answer refuses the request, so that it must have stored nothing (but bookkeeping). Not refusals:
 * - allauth's 401: it reports "not signed in", often with a flow that has just started (signup, code request), and
 *   signing out answers it too (elsewhere 401 means "sign in first");
 * - allauth's 404 to `GET account/authenticators/totp`: "not active yet", with a new secret kept in the session for
 *   the activation that follows.
 */
export function isRefusal(method: string, path: string, status: number): boolean {
  if (status < 400 || status >= 500) return false;
  if (path.startsWith("/_allauth/") && (status === 401 || status === 410)) return false;
  if (method === "GET" && /^\/_allauth\/(browser|app)\/v1\/account\/authenticators\/totp$/.test(path) && status === 404) return false;
  return true;
}
