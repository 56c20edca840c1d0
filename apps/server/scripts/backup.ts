// `pnpm backup [file]`: a consistent copy of the SQLite database while the server runs. See docs/deploy.md.
import { fileURLToPath } from "node:url";
import { readStorageSettings, resolveOperatorPath } from "../src/operations/data-directory.ts";
import { BackupError, backUpSqliteDatabase, defaultBackupPath } from "../src/operations/sqlite-backup.ts";

// apps/server, from scripts/ and from dist/ alike (`pnpm backup` runs the compiled dist/backup.js).
const settings = readStorageSettings(process.env, fileURLToPath(new URL("..", import.meta.url)));
if (settings.databaseUrl) {
  console.error("DATABASE_URL is set: back up PostgreSQL with pg_dump --format=custom (docs/deploy.md, \"Backups\"). pnpm backup copies the SQLite database in DATA_DIR.");
  process.exit(1);
}
const typed = process.argv[2];
const destinationPath = typed ? resolveOperatorPath(typed, process.env) : defaultBackupPath(settings.dataDirectory, new Date());
try {
  const result = await backUpSqliteDatabase({ dataDirectory: settings.dataDirectory, destinationPath });
  console.info(`Backed up ${settings.dataDirectory} to ${result.destinationPath}: ${(result.bytes / 1_048_576).toFixed(1)} MB in ${Math.round(result.milliseconds)} ms.`);
} catch (error) {
  console.error(error instanceof BackupError ? error.message : `The backup failed: ${String(error)}`);
  process.exit(1);
}
