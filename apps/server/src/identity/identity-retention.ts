import type { AtelierDatabase } from "../database/open-database.ts";

/**
 * Deletes sessions past their expiry; answers how many went. An expired session already signs nobody in (`sessions.ts`),
 * but it holds a network address and a browser, which the privacy policy keeps only for the sessions you are signed in
 * with (decision 0084).
 */
export async function pruneExpiredSessions(database: AtelierDatabase, now: Date): Promise<number> {
  const result = await database.deleteFrom("identity_session").where("expires_at", "<=", now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes e-mailed codes and links past their expiry, used or not; answers how many went. Past it they are refused
 * whether their row is there or not (`codes.ts`), so only the address they were sent to is left in them.
 */
export async function pruneExpiredCodes(database: AtelierDatabase, now: Date): Promise<number> {
  const result = await database.deleteFrom("identity_code").where("expires_at", "<=", now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
