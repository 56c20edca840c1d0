import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToLatest } from "./migrations.ts";
import { openDatabase, sqliteFileName, type OpenedDatabase } from "./open-database.ts";
import { sqliteConnectionOf } from "./prepared-query.ts";
import { checkpointIntervalMilliseconds } from "./sqlite-checkpointer.ts";

/** The rows of `rate_limit_window` in the database file alone, as a copy without its log shows them (null: no table yet). */
function windowsInFileAlone(dataDirectory: string): number | null {
  const copyDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-checkpoint-copy-"));
  try {
    const copy = path.join(copyDirectory, sqliteFileName);
    fs.copyFileSync(path.join(dataDirectory, sqliteFileName), copy);
    const connection = new SqliteDatabase(copy, { readonly: true });
    try {
      const table = connection.prepare("select name from sqlite_master where name = 'rate_limit_window'").get();
      if (table === undefined) return null;
      return Number((connection.prepare("select count(*) as count from rate_limit_window").get() as { count: number }).count);
    } finally {
      connection.close();
    }
  } finally {
    fs.rmSync(copyDirectory, { recursive: true, force: true });
  }
}

/**
 * `windowsInFileAlone` while the checkpointer may be writing the file: a copy taken in the middle of its writes can be
 * torn (SQLite finds it malformed), which only says that the checkpoint is still running.
 */
function windowsInFileWhileCheckpointing(dataDirectory: string): number | null | "torn copy" {
  try {
    return windowsInFileAlone(dataDirectory);
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CORRUPT" || (error as { code?: string }).code === "SQLITE_NOTADB") return "torn copy";
    throw error;
  }
}

describe("given a SQLite database opened by the server", () => {
  let dataDirectory = "";
  let opened: OpenedDatabase | null = null;
  afterEach(async () => {
    await opened?.close();
    opened = null;
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  });

  it("should copy committed pages into the database file off the event loop, leaving the server's connection to checkpoint only a long log", async () => {
    dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-checkpointer-"));
    opened = openDatabase({ databaseUrl: null, dataDirectory });
    await migrateToLatest(opened.database);
    expect(sqliteConnectionOf(opened.database)?.pragma("wal_autocheckpoint", { simple: true })).toBe(4000);
    await opened.database
      .insertInto("rate_limit_window")
      .values(Array.from({ length: 20 }, (_, index) => ({ scope: "checkpoint", client_key: `client ${index}`, window_start: "2026-03-10T10:00:00.000Z", request_count: 1 })))
      .execute();
    // The schema and these rows are a few dozen pages of log: the server's connection (at 4,000) would leave them there.
    for (let waited = 0; waited < 40 * checkpointIntervalMilliseconds && windowsInFileWhileCheckpointing(dataDirectory) !== 20; waited += checkpointIntervalMilliseconds) {
      await new Promise((resolve) => setTimeout(resolve, checkpointIntervalMilliseconds));
    }
    expect(windowsInFileAlone(dataDirectory)).toBe(20);
  });

  it("should leave no log behind once closed, the server's connection closing last", async () => {
    dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-checkpointer-"));
    opened = openDatabase({ databaseUrl: null, dataDirectory });
    await migrateToLatest(opened.database);
    await opened.database.insertInto("rate_limit_window").values({ scope: "closing", client_key: "client", window_start: "2026-03-10T10:00:00.000Z", request_count: 1 }).execute();
    await opened.close();
    opened = null;
    expect(fs.existsSync(path.join(dataDirectory, `${sqliteFileName}-wal`))).toBe(false);
    expect(windowsInFileAlone(dataDirectory)).toBe(1);
  });
});
