import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteConnectionOf } from "../database/prepared-query.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createAccountStore } from "./email-addresses.ts";
import { createSessionReadCache } from "./session-read-cache.ts";
import { createSessionStore } from "./sessions.ts";

const now = new Date("2026-03-10T10:00:00.000Z");
const later = new Date(now.getTime() + 60_000);
const sessionInput = { methods: [], pending: {}, ip: "203.0.113.7", userAgent: "test", now };

async function openWithAnna(engine: (typeof testDatabaseEngines)[number]) {
  const testDatabase = await openTestDatabase(engine);
  const { database } = testDatabase;
  const accounts = createAccountStore({ database });
  const sessions = createSessionStore({ database });
  const anna = await accounts.createUser({ email: "anna@example.ch", passwordHash: "hash", now });
  const annas = await sessions.create({ ...sessionInput, client: "browser", userId: anna.id });
  return { testDatabase, database, accounts, sessions, anna, annas };
}

describe("given sessions read through the cache on sqlite", () => {
  let testDatabase: TestDatabase | null = null;
  let otherProcess: Database.Database | null = null;
  afterEach(async () => {
    otherProcess?.close();
    otherProcess = null;
    await testDatabase?.destroy();
    testDatabase = null;
  });

  /** A connection of its own to the same file, as another server process or `sqlite3` at a prompt would have. */
  function openAsAnotherProcess(opened: TestDatabase): Database.Database {
    otherProcess = new Database(sqliteConnectionOf(opened.database)?.name ?? "");
    otherProcess.pragma("foreign_keys = ON");
    return otherProcess;
  }

  it("should answer what findByToken answers, and the same objects again while nothing in the identity tables changes", async () => {
    const opened = await openWithAnna("sqlite");
    testDatabase = opened.testDatabase;
    const cache = createSessionReadCache({ database: opened.database, sessions: opened.sessions });
    const first = await cache.findByToken(opened.annas.token, "browser", later);
    expect(first).toEqual(await opened.sessions.findByToken(opened.annas.token, "browser", later));
    expect(first?.account?.emailAddresses).toEqual([{ email: "anna@example.ch", verified: false, primary: true }]);

    // Writes elsewhere (a group, a contact message) leave the kept session.
    await opened.database.insertInto("subtitle_group").values({ id: crypto.randomUUID(), owner_id: opened.anna.id, name: "Film", is_public: 0, pair_count: 0, alignment_report_json: "{}", created_at: now.toISOString() }).execute();
    const second = await cache.findByToken(opened.annas.token, "browser", later);
    expect(second).toBe(first);
    expect(Object.isFrozen(second?.session)).toBe(true);
    expect(() => (second?.session.methods as unknown[]).push("changed")).toThrow(TypeError);
  });

  it("should read the session again after any change to the session, user or e-mail tables, by this process or another", async () => {
    const opened = await openWithAnna("sqlite");
    testDatabase = opened.testDatabase;
    const cache = createSessionReadCache({ database: opened.database, sessions: opened.sessions });
    const other = openAsAnotherProcess(opened.testDatabase);
    const read = () => cache.findByToken(opened.annas.token, "browser", later);

    let kept = await read();
    await opened.accounts.addEmailAddress(opened.anna.id, "anna.second@example.ch", new Date(now.getTime() + 1_000));
    let found = await read();
    expect(found).not.toBe(kept);
    expect(found?.account?.emailAddresses.map((address) => address.email)).toEqual(["anna@example.ch", "anna.second@example.ch"]);

    kept = found;
    other.prepare("update identity_email_address set verified = 1 where email = ?").run("anna.second@example.ch");
    found = await read();
    expect(found).not.toBe(kept);
    expect(found?.account?.emailAddresses[1]).toEqual({ email: "anna.second@example.ch", verified: true, primary: false });

    kept = found;
    other.prepare("update identity_user set is_active = 0 where id = ?").run(opened.anna.id);
    found = await read();
    expect(found).not.toBe(kept);
    expect(found?.account?.isActive).toBe(false);

    kept = found;
    other.prepare("update identity_session set methods_json = ? where user_id = ?").run(JSON.stringify([{ method: "password", at: 1 }]), opened.anna.id);
    found = await read();
    expect(found).not.toBe(kept);
    expect(found?.session.methods).toEqual([{ method: "password", at: 1 }]);

    // Ended in another process: the next call signs nobody in.
    other.prepare("delete from identity_session where user_id = ?").run(opened.anna.id);
    expect(await read()).toBeNull();
  });

  it("should forget a kept session when its user is deleted, the cascade included", async () => {
    const opened = await openWithAnna("sqlite");
    testDatabase = opened.testDatabase;
    const cache = createSessionReadCache({ database: opened.database, sessions: opened.sessions });
    expect(await cache.findByToken(opened.annas.token, "browser", later)).not.toBeNull();
    await opened.database.deleteFrom("identity_user").where("id", "=", opened.anna.id).execute();
    expect(await cache.findByToken(opened.annas.token, "browser", later)).toBeNull();
  });

  it("should count each change to the identity tables and nothing else, so that without the count a change would go unseen", async () => {
    const opened = await openWithAnna("sqlite");
    testDatabase = opened.testDatabase;
    const changes = async () => Number((await sql<{ changes: number }>`select changes from identity_change_count`.execute(opened.database)).rows[0]?.changes);
    const before = await changes();
    await opened.accounts.addEmailAddress(opened.anna.id, "anna.second@example.ch", now);
    await opened.accounts.setPasswordHash(opened.anna.id, "another hash");
    await opened.sessions.create({ ...sessionInput, client: "browser", userId: null });
    expect(await changes()).toBe(before + 3);
    await opened.database.insertInto("subtitle_group").values({ id: crypto.randomUUID(), owner_id: opened.anna.id, name: "Film", is_public: 0, pair_count: 0, alignment_report_json: "{}", created_at: now.toISOString() }).execute();
    expect(await changes()).toBe(before + 3);

    // The triggers are what moves it: dropped, a change of the e-mail tables leaves the kept session as it was.
    const cache = createSessionReadCache({ database: opened.database, sessions: opened.sessions });
    const kept = await cache.findByToken(opened.annas.token, "browser", later);
    for (const change of ["insert", "update", "delete"]) await sql.raw(`drop trigger identity_email_address_counted_after_${change}`).execute(opened.database);
    await opened.accounts.removeEmailAddress(opened.anna.id, "anna.second@example.ch");
    expect(await cache.findByToken(opened.annas.token, "browser", later)).toBe(kept);
  });

  it("should answer null once a kept session expires, and not give a browser's session to an app's call", async () => {
    const opened = await openWithAnna("sqlite");
    testDatabase = opened.testDatabase;
    const cache = createSessionReadCache({ database: opened.database, sessions: opened.sessions });
    const kept = await cache.findByToken(opened.annas.token, "browser", later);
    expect(await cache.findByToken(opened.annas.token, "app", later)).toBeNull();
    expect(await cache.findByToken(opened.annas.token, "browser", new Date(kept?.session.expiresAt ?? 0))).toBeNull();
    expect(await cache.findByToken("", "browser", later)).toBeNull();
    expect(await cache.findByToken("x".repeat(201), "browser", later)).toBeNull();
  });

  it("should keep at most its number of sessions, the oldest read leaving first", async () => {
    const opened = await openWithAnna("sqlite");
    testDatabase = opened.testDatabase;
    const brunos = await opened.sessions.create({ ...sessionInput, client: "browser", userId: null });
    const carlas = await opened.sessions.create({ ...sessionInput, client: "browser", userId: null });
    const cache = createSessionReadCache({ database: opened.database, sessions: opened.sessions, maximumEntries: 2 });
    const annasFirst = await cache.findByToken(opened.annas.token, "browser", later);
    const brunosFirst = await cache.findByToken(brunos.token, "browser", later);
    await cache.findByToken(carlas.token, "browser", later);
    expect(await cache.findByToken(brunos.token, "browser", later)).toBe(brunosFirst);
    expect(await cache.findByToken(opened.annas.token, "browser", later)).not.toBe(annasFirst);
  });

  it("should answer what was committed while a transaction holds the connection, and the change once it is committed", async () => {
    const opened = await openWithAnna("sqlite");
    testDatabase = opened.testDatabase;
    const cache = createSessionReadCache({ database: opened.database, sessions: opened.sessions });
    const kept = await cache.findByToken(opened.annas.token, "browser", later);
    const verify = (executor: typeof opened.database) => executor.updateTable("identity_email_address").set({ verified: 1 }).where("user_id", "=", opened.anna.id).execute();

    // A transaction that changes the address and is rolled back: its change is never answered.
    const rolledBack = opened.database.transaction().execute(async (transaction) => {
      await verify(transaction);
      const duringTransaction = cache.findByToken(opened.annas.token, "browser", later);
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw Object.assign(new Error("rolled back"), { duringTransaction });
    });
    const { duringTransaction } = (await rolledBack.catch((error: unknown) => error)) as { duringTransaction: Promise<unknown> };
    expect(await duringTransaction).toEqual(kept);

    // The count a committed change brings is the one the rolled-back change had brought: had the call above read the
    // count inside the transaction, it would now take the session it read after the rollback as up to date.
    await opened.database.transaction().execute(verify);
    const afterCommit = await cache.findByToken(opened.annas.token, "browser", later);
    expect(afterCommit?.account?.emailAddresses[0]?.verified).toBe(true);
  });

  it("should not keep a session read while another call saw the identity tables change", async () => {
    const opened = await openWithAnna("sqlite");
    testDatabase = opened.testDatabase;
    const other = openAsAnotherProcess(opened.testDatabase);
    let interleaved = false;
    const sessions = {
      findByToken: opened.sessions.findByToken,
      async findByTokenHash(...args: Parameters<typeof opened.sessions.findByTokenHash>) {
        const found = await opened.sessions.findByTokenHash(...args);
        if (!interleaved) {
          // After this read and before it is kept: the e-mail changes, and another call sees the count move.
          interleaved = true;
          other.prepare("update identity_email_address set verified = 1 where user_id = ?").run(opened.anna.id);
          await cache.findByToken("a token of nobody", "browser", later);
        }
        return found;
      },
    };
    const cache = createSessionReadCache({ database: opened.database, sessions });
    const stale = await cache.findByToken(opened.annas.token, "browser", later);
    expect(stale?.account?.emailAddresses[0]?.verified).toBe(false);
    const fresh = await cache.findByToken(opened.annas.token, "browser", later);
    expect(fresh?.account?.emailAddresses[0]?.verified).toBe(true);
  });
});

describe.each(testDatabaseEngines.filter((engine) => engine === "postgresql"))("given sessions read through the cache on %s", (engine) => {
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  it("should read the session at every call, several processes sharing the database", async () => {
    const opened = await openWithAnna(engine);
    testDatabase = opened.testDatabase;
    const cache = createSessionReadCache({ database: opened.database, sessions: opened.sessions });
    const first = await cache.findByToken(opened.annas.token, "browser", later);
    expect(first).toEqual(await opened.sessions.findByToken(opened.annas.token, "browser", later));
    expect(await cache.findByToken(opened.annas.token, "browser", later)).not.toBe(first);
    await opened.database.deleteFrom("identity_session").where("id", "=", opened.annas.session.id).execute();
    expect(await cache.findByToken(opened.annas.token, "browser", later)).toBeNull();
  });
});
