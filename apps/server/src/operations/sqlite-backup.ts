import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { sqliteFileName } from "../database/open-database.ts";

/** A backup or restore that cannot go ahead; the message says what to do. Nothing was changed. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

export type BackupResult = { destinationPath: string; bytes: number; milliseconds: number; pages: number };

/** `<dataDirectory>/backups/atelier-20260101T120000Z.sqlite` for a moment. */
export function defaultBackupPath(dataDirectory: string, moment: Date): string {
  const stamp = moment.toISOString().replace(/\.\d{3}Z$/, "Z").replaceAll(/[-:]/g, "");
  return path.join(dataDirectory, "backups", `atelier-${stamp}.sqlite`);
}

/**
 * Copies the SQLite database of `dataDirectory` to `destinationPath` with SQLite's online backup, page by page,
 * while the server keeps reading and writing it: the copy is the database as of one moment. Writes to `<destination>.partial` and renames it when done,
 * so a destination file is always a whole backup.
 *
 * @example
 * const { destinationPath } = await backUpSqliteDatabase({ dataDirectory: "/var/lib/atelier", destinationPath: "/var/backups/atelier/today.sqlite" });
 */
export async function backUpSqliteDatabase(options: { dataDirectory: string; destinationPath: string }): Promise<BackupResult> {
  const sourcePath = path.join(options.dataDirectory, sqliteFileName);
  if (!fs.existsSync(sourcePath)) throw new BackupError(`There is no database at ${sourcePath}: set DATA_DIR to the server's data directory.`);
  if (fs.existsSync(options.destinationPath)) throw new BackupError(`${options.destinationPath} exists already; name a new file, so that no backup is overwritten.`);
  fs.mkdirSync(path.dirname(options.destinationPath), { recursive: true });
  const partialPath = `${options.destinationPath}.partial`;
  fs.rmSync(partialPath, { force: true });
  const startedAt = performance.now();
  const source = new SqliteDatabase(sourcePath, { fileMustExist: true });
  let pages: number;
  try {
    // The server's writers wait on this connection at most this long, as they wait on each other.
    source.pragma("busy_timeout = 5000");
    const progress = await source.backup(partialPath, {
      // Every page in one step, inside one read transaction: a copy made in several steps starts again whenever the
      // server writes in between, which under steady writes never ends. In WAL mode the server's writes go on
      // meanwhile; this process is the one that waits.
      progress: () => 0x7fffffff,
    });
    pages = progress.totalPages;
  } catch (error) {
    fs.rmSync(partialPath, { force: true });
    throw error;
  } finally {
    source.close();
  }
  // The copy carries the source's WAL mode; a backup is one self-contained file, so it goes back to a rollback
  // journal (which also removes the copy's -wal and -shm files).
  const copy = new SqliteDatabase(partialPath, { fileMustExist: true });
  copy.pragma("journal_mode = DELETE");
  copy.close();
  checkIntegrity(partialPath);
  fs.renameSync(partialPath, options.destinationPath);
  return { destinationPath: options.destinationPath, bytes: fs.statSync(options.destinationPath).size, milliseconds: performance.now() - startedAt, pages };
}

/**
 * Puts a backup back as the database of `dataDirectory`, for a server that is stopped. Refuses a file that is not a
 * whole Atelier database, and an existing database unless `replaceExisting` (which keeps it as
 * `atelier.sqlite.before-restore-<time>`).
 *
 * @example
 * restoreSqliteDatabase({ backupPath: "/var/backups/atelier/today.sqlite", dataDirectory: "/var/lib/atelier", replaceExisting: false, now: new Date() });
 */
export function restoreSqliteDatabase(options: { backupPath: string; dataDirectory: string; replaceExisting: boolean; now: Date }): { databasePath: string; keptPreviousAs: string | null } {
  if (!fs.existsSync(options.backupPath)) throw new BackupError(`There is no backup at ${options.backupPath}.`);
  checkIntegrity(options.backupPath);
  const databasePath = path.join(options.dataDirectory, sqliteFileName);
  let keptPreviousAs: string | null = null;
  if (fs.existsSync(databasePath)) {
    if (!options.replaceExisting) throw new BackupError(`${databasePath} exists. Stop the server, then run the restore again with --replace (the current database is kept beside it).`);
    keptPreviousAs = `${databasePath}.before-restore-${options.now.toISOString().replaceAll(/[-:.]/g, "")}`;
  }
  fs.mkdirSync(options.dataDirectory, { recursive: true });
  const incomingPath = `${databasePath}.restoring`;
  fs.copyFileSync(options.backupPath, incomingPath);
  if (keptPreviousAs) {
    // The write-ahead log belongs to the database being replaced: folded into it first, then both are set aside.
    const previous = new SqliteDatabase(databasePath, { fileMustExist: true });
    previous.pragma("wal_checkpoint(TRUNCATE)");
    previous.close();
    fs.renameSync(databasePath, keptPreviousAs);
  }
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${databasePath}${suffix}`, { force: true });
  fs.renameSync(incomingPath, databasePath);
  return { databasePath, keptPreviousAs };
}

function checkIntegrity(filePath: string): void {
  let database: SqliteDatabase.Database;
  try {
    database = new SqliteDatabase(filePath, { readonly: true, fileMustExist: true });
  } catch {
    throw new BackupError(`${filePath} is not an SQLite database.`);
  }
  try {
    const result = database.pragma("quick_check", { simple: true });
    if (result !== "ok") throw new BackupError(`${filePath} is damaged (SQLite's quick_check: ${String(result)}).`);
    const hasMigrations = database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
    if (!hasMigrations) throw new BackupError(`${filePath} is not an Atelier database (it has no kysely_migration table).`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${filePath} is not an SQLite database (${error instanceof Error ? error.message : String(error)}).`);
  } finally {
    database.close();
  }
}
