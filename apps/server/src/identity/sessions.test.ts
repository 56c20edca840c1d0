import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createAccountStore } from "./email-addresses.ts";
import { createSessionStore } from "./sessions.ts";
import { findGroup } from "../study/study-store.ts";

const now = new Date("2026-03-10T10:00:00.000Z");
const session = { methods: [], pending: {}, ip: "203.0.113.7", userAgent: "test", now };

describe.each(testDatabaseEngines)("given sessions on %s", (engine) => {
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  it("should still find a session and its group after a migration adds columns under the running process (a rolling upgrade)", async () => {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    const accounts = createAccountStore({ database });
    const sessions = createSessionStore({ database });
    const anna = await accounts.createUser({ email: "anna@example.ch", passwordHash: "hash", now });
    const annas = await sessions.create({ ...session, client: "browser", userId: anna.id });
    const groupId = "5c0c4a52-8f5e-4e61-9f0a-3f6f2b1d2e10";
    await database.insertInto("subtitle_group").values({ id: groupId, owner_id: anna.id, name: "Film", is_public: 0, pair_count: 0, alignment_report_json: "{}", created_at: now.toISOString() }).execute();
    // One after another, the reads go to the same pooled connection, which prepared them the first time.
    const readBoth = async () => {
      const answers: string[] = [];
      for (let round = 0; round < 3; round += 1) answers.push([(await sessions.findByToken(annas.token, "browser", now))?.session.id, (await findGroup(database, groupId))?.name].join());
      return answers;
    };
    expect(new Set(await readBoth())).toEqual(new Set([`${annas.session.id},Film`]));
    await sql`alter table identity_session add column next_release_note text`.execute(database);
    await sql`alter table subtitle_group add column next_release_note text`.execute(database);
    expect(new Set(await readBoth())).toEqual(new Set([`${annas.session.id},Film`]));
  });

  it("should find each session of many read at once with its own account, and none for an unknown, expired or other client's token", async () => {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    const accounts = createAccountStore({ database });
    const sessions = createSessionStore({ database });
    const anna = await accounts.createUser({ email: "anna@example.ch", passwordHash: "hash", now });
    await accounts.addEmailAddress(anna.id, "anna.second@example.ch", new Date(now.getTime() + 1_000));
    const bruno = await accounts.createUser({ email: "bruno@example.ch", passwordHash: null, now });
    const annas = await sessions.create({ ...session, client: "browser", userId: anna.id });
    const brunos = await sessions.create({ ...session, client: "app", userId: bruno.id });
    const anonymous = await sessions.create({ ...session, client: "browser", userId: null });
    const later = new Date(now.getTime() + 60_000);

    const found = await Promise.all([
      sessions.findByToken(annas.token, "browser", later),
      sessions.findByToken(brunos.token, "app", later),
      sessions.findByToken(anonymous.token, "browser", later),
      sessions.findByToken("not a token", "browser", later),
      sessions.findByToken(brunos.token, "browser", later),
      sessions.findByToken(annas.token, "browser", new Date(now.getTime() + 400 * 24 * 3_600_000)),
      sessions.findByToken(annas.token, "browser", later),
    ]);

    expect(found.map((result) => result?.session.id ?? null)).toEqual([annas.session.id, brunos.session.id, anonymous.session.id, null, null, null, annas.session.id]);
    expect(found[0]?.account).toEqual({
      id: anna.id,
      passwordHash: "hash",
      isActive: true,
      emailAddresses: [
        { email: "anna@example.ch", verified: false, primary: true },
        { email: "anna.second@example.ch", verified: false, primary: false },
      ],
    });
    expect(found[1]?.account).toEqual({ id: bruno.id, passwordHash: null, isActive: true, emailAddresses: [{ email: "bruno@example.ch", verified: false, primary: true }] });
    expect(found[2]?.account).toBeNull();
  });

  it("should not find a session ended a moment before, even among reads of other sessions", async () => {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    const sessions = createSessionStore({ database });
    const first = await sessions.create({ ...session, client: "browser", userId: null });
    const second = await sessions.create({ ...session, client: "browser", userId: null });
    const readBefore = sessions.findByToken(second.token, "browser", now);
    await sessions.delete(first.session.id);
    const [firstAfter, secondAfter] = await Promise.all([sessions.findByToken(first.token, "browser", now), sessions.findByToken(second.token, "browser", now)]);
    expect(await readBefore).not.toBeNull();
    expect(firstAfter).toBeNull();
    expect(secondAfter?.session.id).toBe(second.session.id);
  });
});
