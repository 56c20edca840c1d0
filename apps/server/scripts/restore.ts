// `pnpm restore <file> [--replace]`: puts a backup back as the SQLite database in DATA_DIR, server stopped. See docs/deploy.md.
import { fileURLToPath } from "node:url";
import { readStorageSettings, resolveOperatorPath } from "../src/operations/data-directory.ts";
import { BackupError, restoreSqliteDatabase } from "../src/operations/sqlite-backup.ts";

// apps/server, from scripts/ and from dist/ alike (`pnpm restore` runs the compiled dist/restore.js).
const settings = readStorageSettings(process.env, fileURLToPath(new URL("..", import.meta.url)));
if (settings.databaseUrl) {
  console.error("DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/deploy.md, \"Backups\"). pnpm restore puts back a SQLite backup in DATA_DIR.");
  process.exit(1);
}
const args = process.argv.slice(2);
const typed = args.find((argument) => !argument.startsWith("--"));
const unknown = args.filter((argument) => argument.startsWith("--") && argument !== "--replace");
if (!typed || unknown.length > 0) {
  console.error(`${unknown.length > 0 ? `Unknown option ${unknown.join(", ")}. ` : ""}Usage: pnpm restore <backup file> [--replace]. Stop the server first.`);
  process.exit(1);
}
try {
  const result = restoreSqliteDatabase({ backupPath: resolveOperatorPath(typed, process.env), dataDirectory: settings.dataDirectory, replaceExisting: args.includes("--replace"), now: new Date() });
  console.info(`Restored ${result.databasePath}${result.keptPreviousAs ? `; the database it replaced is kept as ${result.keptPreviousAs}` : ""}. Start the server.`);
} catch (error) {
  console.error(error instanceof BackupError ? error.message : `The restore failed: ${String(error)}`);
  process.exit(1);
}
