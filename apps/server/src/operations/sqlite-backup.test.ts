import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToLatest } from "../database/migrations.ts";
import { openDatabase, sqliteFileName } from "../database/open-database.ts";
import { BackupError, backUpSqliteDatabase, defaultBackupPath, restoreSqliteDatabase } from "./sqlite-backup.ts";

const folders: string[] = [];
function newFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-backup-test-"));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

const frozenNow = new Date("2026-03-01T12:00:00.000Z");

async function createServerDatabase(messageCount: number): Promise<{ dataDirectory: string; close: () => Promise<void>; insert: (count: number, from: number) => Promise<void> }> {
  const dataDirectory = newFolder();
  const opened = openDatabase({ databaseUrl: null, dataDirectory });
  await migrateToLatest(opened.database);
  const insert = async (count: number, from: number) => {
    for (let index = from; index < from + count; index += 1) {
      await opened.database
        .insertInto("outbox_mail")
        .values({ id: `mail-${index}`, to_address: "a@example.com", from_address: "b@example.com", reply_to: null, subject: `Mail ${index}`, text_body: "x".repeat(500), html_body: null, created_at: frozenNow.toISOString() })
        .execute();
    }
  };
  await insert(messageCount, 0);
  return { dataDirectory, close: opened.close, insert };
}

function countMails(databasePath: string): number {
  const database = new SqliteDatabase(databasePath, { readonly: true });
  try {
    return (database.prepare("SELECT count(*) AS count FROM outbox_mail").get() as { count: number }).count;
  } finally {
    database.close();
  }
}

describe("given a SQLite database a server has open and writes to", () => {
  it("should copy every row written before the backup began, while writes go on, into a whole file", async () => {
    const server = await createServerDatabase(2_000);
    try {
      const destinationPath = path.join(newFolder(), "nested", "copy.sqlite");
      const writesDuringBackup = server.insert(300, 2_000);
      const result = await backUpSqliteDatabase({ dataDirectory: server.dataDirectory, destinationPath });
      await writesDuringBackup;
      expect(result.destinationPath).toBe(destinationPath);
      expect(fs.readdirSync(path.dirname(destinationPath))).toEqual(["copy.sqlite"]);
      const copied = countMails(destinationPath);
      expect(copied).toBeGreaterThanOrEqual(2_000);
      expect(copied).toBeLessThanOrEqual(2_300);
    } finally {
      await server.close();
    }
  });

  it("should refuse to overwrite a backup, or to back up a directory without a database", async () => {
    const server = await createServerDatabase(1);
    try {
      const destinationPath = path.join(newFolder(), "copy.sqlite");
      fs.writeFileSync(destinationPath, "an older backup");
      await expect(backUpSqliteDatabase({ dataDirectory: server.dataDirectory, destinationPath })).rejects.toThrow(new BackupError(`${destinationPath} exists already; name a new file, so that no backup is overwritten.`));
      expect(fs.readFileSync(destinationPath, "utf8")).toBe("an older backup");
      const empty = newFolder();
      await expect(backUpSqliteDatabase({ dataDirectory: empty, destinationPath: path.join(empty, "x.sqlite") })).rejects.toThrow(/There is no database at .*: set DATA_DIR/);
    } finally {
      await server.close();
    }
  });

  it("should name backups by the moment, in the data directory's backups folder", () => {
    expect(defaultBackupPath("/var/lib/atelier", frozenNow)).toBe("/var/lib/atelier/backups/atelier-20260301T120000Z.sqlite");
  });
});

describe("given a backup to restore", () => {
  it("should put it into an empty data directory", async () => {
    const server = await createServerDatabase(10);
    const backupPath = path.join(newFolder(), "copy.sqlite");
    try {
      await backUpSqliteDatabase({ dataDirectory: server.dataDirectory, destinationPath: backupPath });
    } finally {
      await server.close();
    }
    const fresh = path.join(newFolder(), "data");
    const result = restoreSqliteDatabase({ backupPath, dataDirectory: fresh, replaceExisting: false, now: frozenNow });
    expect(result).toEqual({ databasePath: path.join(fresh, sqliteFileName), keptPreviousAs: null });
    expect(countMails(result.databasePath)).toBe(10);
  });

  it("should refuse to replace a database without --replace, and keep the replaced one beside it with it", async () => {
    const older = await createServerDatabase(3);
    const current = await createServerDatabase(7);
    await current.close();
    const backupPath = path.join(newFolder(), "copy.sqlite");
    try {
      await backUpSqliteDatabase({ dataDirectory: older.dataDirectory, destinationPath: backupPath });
    } finally {
      await older.close();
    }
    expect(() => restoreSqliteDatabase({ backupPath, dataDirectory: current.dataDirectory, replaceExisting: false, now: frozenNow })).toThrow(/exists\. Stop the server, then run the restore again with --replace/);
    expect(countMails(path.join(current.dataDirectory, sqliteFileName))).toBe(7);

    const result = restoreSqliteDatabase({ backupPath, dataDirectory: current.dataDirectory, replaceExisting: true, now: frozenNow });
    expect(countMails(result.databasePath)).toBe(3);
    expect(result.keptPreviousAs).toBe(`${result.databasePath}.before-restore-20260301T120000000Z`);
    expect(countMails(result.keptPreviousAs!)).toBe(7);
  });

  it("should refuse a file that is not an Atelier database and change nothing", () => {
    const folder = newFolder();
    const notADatabase = path.join(folder, "notes.sqlite");
    fs.writeFileSync(notADatabase, "these are not pages of a database, just text long enough to look like a header".repeat(20));
    const otherDatabase = path.join(folder, "other.sqlite");
    new SqliteDatabase(otherDatabase).exec("CREATE TABLE t (x)");
    const target = path.join(folder, "data");
    expect(() => restoreSqliteDatabase({ backupPath: notADatabase, dataDirectory: target, replaceExisting: false, now: frozenNow })).toThrow(BackupError);
    expect(() => restoreSqliteDatabase({ backupPath: otherDatabase, dataDirectory: target, replaceExisting: false, now: frozenNow })).toThrow(/is not an Atelier database/);
    expect(() => restoreSqliteDatabase({ backupPath: path.join(folder, "missing.sqlite"), dataDirectory: target, replaceExisting: false, now: frozenNow })).toThrow(/There is no backup at/);
    expect(fs.existsSync(target)).toBe(false);
  });
});
