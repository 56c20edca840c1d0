import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboxMailer, listOutboxMails } from "../mail/outbox-mailer.ts";
import { createRateLimiter } from "../rate-limit/rate-limiter.ts";
import { migrateToLatest } from "./migrations.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "./test-databases.ts";

describe.each(testDatabaseEngines)("given a migrated %s database", (engine) => {
  let testDatabase: TestDatabase;
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should open the expected engine", () => {
    expect(testDatabase.engine).toBe(engine);
  });

  it("should do nothing when migrated a second time", async () => {
    await expect(migrateToLatest(testDatabase.database, { postgresSchema: testDatabase.postgresSchema })).resolves.toBeUndefined();
  });

  it("should store and read a contact message with its delivery status", async () => {
    await testDatabase.database
      .insertInto("contact_message")
      .values({ id: "m1", name: "Anna", email: "anna@example.ch", message: "Grüezi 👋", ip_address: "203.0.113.7", created_at: "2026-01-02T03:04:05.000Z", delivery_status: "pending", delivery_error: null })
      .execute();
    await testDatabase.database.updateTable("contact_message").set({ delivery_status: "sent" }).where("id", "=", "m1").execute();
    const stored = await testDatabase.database.selectFrom("contact_message").selectAll().executeTakeFirstOrThrow();
    expect(stored).toEqual({ id: "m1", name: "Anna", email: "anna@example.ch", message: "Grüezi 👋", ip_address: "203.0.113.7", created_at: "2026-01-02T03:04:05.000Z", delivery_status: "sent", delivery_error: null });
  });

  it("should list outbox mails newest first and filter them by recipient", async () => {
    let now = new Date("2026-01-01T10:00:00.000Z");
    const mailer = createOutboxMailer({ database: testDatabase.database, mailFrom: "Atelier <no-reply@atelier.localhost>", clock: () => now });
    await mailer.sendMail({ to: "anna@example.ch", subject: "First", text: "1" });
    now = new Date("2026-01-01T11:00:00.000Z");
    await mailer.sendMail({ to: "ben@example.ch", subject: "Second", text: "2", html: "<p>2</p>", replyTo: { name: "Anna", address: "anna@example.ch" } });

    const mails = await listOutboxMails(testDatabase.database);
    expect(mails.map((mail) => mail.subject)).toEqual(["Second", "First"]);
    expect(mails[0]).toMatchObject({ to: "ben@example.ch", from: "Atelier <no-reply@atelier.localhost>", replyTo: '"Anna" <anna@example.ch>', html: "<p>2</p>" });
    expect((await listOutboxMails(testDatabase.database, { to: "anna@example.ch" })).map((mail) => mail.subject)).toEqual(["First"]);
  });

  it("should keep a spent captcha challenge unique", async () => {
    const insertSpentChallenge = () =>
      testDatabase.database
        .insertInto("captcha_spent_challenge")
        .values({ challenge_hash: "hash", expires_at: "2026-01-01T10:10:00.000Z" })
        .onConflict((conflict) => conflict.column("challenge_hash").doNothing())
        .returning("challenge_hash")
        .executeTakeFirst();
    expect(await insertSpentChallenge()).toEqual({ challenge_hash: "hash" });
    expect(await insertSpentChallenge()).toBeUndefined();
  });

  it("should limit requests per address within the window and allow them again after it", async () => {
    let now = new Date("2026-01-01T10:00:00.000Z");
    const limiter = createRateLimiter({ database: testDatabase.database, scope: "contact", limit: { maximumRequests: 2, windowMilliseconds: 60_000 }, clock: () => now });
    expect(await limiter.registerRequest("203.0.113.7")).toEqual({ status: "allowed" });
    expect(await limiter.registerRequest("203.0.113.7")).toEqual({ status: "allowed" });
    expect(await limiter.registerRequest("198.51.100.1")).toEqual({ status: "allowed" });
    now = new Date("2026-01-01T10:00:20.000Z");
    expect(await limiter.registerRequest("203.0.113.7")).toEqual({ status: "limited", retryAfterSeconds: 40 });
    now = new Date("2026-01-01T10:01:00.001Z");
    expect(await limiter.registerRequest("203.0.113.7")).toEqual({ status: "allowed" });
  });
});
