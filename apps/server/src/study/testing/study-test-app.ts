import type { Clock } from "../../clock.ts";
import type { TestDatabase } from "../../database/test-databases.ts";
import { createIdentityTestApp } from "../../identity/testing/test-app.ts";

/** The whole server as the study tests see it: sign-up signs in at once (no e-mail verification). */
export function createStudyTestApp(testDatabase: TestDatabase, options: { clock?: Clock } = {}) {
  return createIdentityTestApp(testDatabase, { environment: { ACCOUNT_EMAIL_VERIFICATION: "none" }, clock: options.clock });
}

/** Row counts of the study tables, to prove that a refused upload stored nothing. */
export async function countStudyRows(testDatabase: TestDatabase): Promise<{ groups: number; pairs: number }> {
  const groups = await testDatabase.database.selectFrom("subtitle_group").select((expression) => expression.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow();
  const pairs = await testDatabase.database.selectFrom("subtitle_pair").select((expression) => expression.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow();
  return { groups: Number(groups.count), pairs: Number(pairs.count) };
}
