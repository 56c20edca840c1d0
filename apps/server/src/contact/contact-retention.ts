import type { AtelierDatabase } from "../database/open-database.ts";

/** Messages older than this are deleted: the privacy policy (§5) keeps them "for at most two years" (decision 0084). */
export const contactMessageRetentionDays = 730;

/** Deletes every contact message received more than `contactMessageRetentionDays` before `now`; answers how many went. */
export async function pruneExpiredContactMessages(database: AtelierDatabase, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - contactMessageRetentionDays * 86_400_000).toISOString();
  const result = await database.deleteFrom("contact_message").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
