import type { Kysely } from "kysely";
import { Migrator, type Migration, type MigrationResultSet } from "kysely/migration";
import type { DatabaseSchema } from "./schema.ts";
import { migrationsOfTheFirstReleases } from "./migration-steps-0001-0007.ts";
import { migrationsSinceHiddenPairs } from "./migration-steps-0008-on.ts";

// A new migration goes at the end of migration-steps-0008-on.ts; both engines must run it (see that file's header).
export const migrations: Record<string, Migration> = { ...migrationsOfTheFirstReleases, ...migrationsSinceHiddenPairs };

function createMigrator(database: Kysely<DatabaseSchema>, options: { postgresSchema?: string }): Migrator {
  // Kysely finds its bookkeeping tables by name in every schema unless told which one: name it when the database
  // lives in its own schema, or a second schema's tables (another test run) are taken for this one's.
  return new Migrator({
    db: database,
    provider: { getMigrations: async () => migrations },
    ...(options.postgresSchema ? { migrationTableSchema: options.postgresSchema } : {}),
  });
}

function throwOnFailedMigration({ error, results }: MigrationResultSet): void {
  if (error) {
    const failedMigration = results?.find((result) => result.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`The database migration "${failedMigration}" failed. Fix it before starting the server.`, { cause: error });
  }
}

/**
 * Brings the database schema to the latest migration; throws with the failing migration's name.
 *
 * @example
 * await migrateToLatest(database);
 */
export async function migrateToLatest(database: Kysely<DatabaseSchema>, options: { postgresSchema?: string } = {}): Promise<void> {
  throwOnFailedMigration(await createMigrator(database, options).migrateToLatest());
}

/**
 * Brings the database schema to the named migration and no further: a database as an earlier release left it, for
 * tests of an upgrade. Throws with the failing migration's name.
 *
 * @example
 * await migrateUpTo(database, "0007-rate-limit-window");
 */
export async function migrateUpTo(database: Kysely<DatabaseSchema>, lastMigrationName: string, options: { postgresSchema?: string } = {}): Promise<void> {
  if (!(lastMigrationName in migrations)) {
    throw new Error(`There is no migration named "${lastMigrationName}"; the migrations are ${Object.keys(migrations).join(", ")}.`);
  }
  throwOnFailedMigration(await createMigrator(database, options).migrateTo(lastMigrationName));
}
