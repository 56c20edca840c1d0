import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { listOutboxMails } from "../mail/outbox-mailer.ts";
import { createIdentityTestClient, readLastCode } from "../identity/testing/identity-test-client.ts";
import { createIdentityTestApp } from "../identity/testing/test-app.ts";
import { retentionPruneIntervalMilliseconds, startRetentionPruning } from "../operations/retention-pruning.ts";
import { securityEventRetentionDays } from "./security-events.ts";

const password = "correct horse battery";
let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;

describe.each(testDatabaseEngines)("given an account's security events on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-01T10:00:00.000Z");
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  async function signedUp(email: string) {
    const app = createIdentityTestApp(testDatabase, { clock });
    const browser = createIdentityTestClient(app, { ip: "198.51.100.1" });
    expect((await browser.post("/auth/signup", { email, password })).status).toBe(401);
    expect((await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, email) })).status).toBe(200);
    return { app, browser };
  }

  it("should list sign-ins, failed sign-ins and changes newest first, with method, browser and address, and only to their owner", async () => {
    const { app, browser } = await signedUp("anna@example.ch");
    const stranger = createIdentityTestClient(app, { ip: "198.51.100.9" });
    expect((await stranger.post("/auth/login", { email: "anna@example.ch", password: "not her password" })).status).toBe(400);
    now = new Date(now.getTime() + 1_000);
    expect((await browser.post("/auth/reauthenticate", { password })).status).toBe(200);
    expect((await browser.post("/account/password/change", { current_password: password, new_password: "a brand new password" })).status).toBe(200);
    expect((await browser.post("/account/email", { email: "anna.work@example.ch" })).status).toBe(200);

    const listed = await browser.get("/api/account/security-events/");
    expect(listed.status).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("no-store");
    expect(listed.body.retention_days).toBe(securityEventRetentionDays);
    expect(listed.body.events.map((event: { type: string }) => event.type)).toEqual(["email_added", "password_changed", "sign_in_failed", "signed_in"]);
    expect(listed.body.events[0]).toEqual({ type: "email_added", method: null, detail: "anna.work@example.ch", ip_address: "198.51.100.1", user_agent: "vitest browser", created_at: "2026-03-01T10:00:01.000Z" });
    expect(listed.body.events[2]).toMatchObject({ type: "sign_in_failed", method: "password", ip_address: "198.51.100.9" });

    const [notice] = await listOutboxMails(testDatabase.database, { to: "anna@example.ch" });
    expect(notice?.subject).toBe("An address was added to your Atelier account");

    expect((await stranger.get("/api/account/security-events/")).status).toBe(401);
    await signedUp("bert@example.ch").then(async ({ browser: bert }) => {
      const own = await bert.get("/api/account/security-events/");
      expect(own.body.events.map((event: { type: string }) => event.type)).toEqual(["signed_in"]);
    });
  });

  it("should mail a sign-in from a browser not seen before, and not one from a known browser", async () => {
    const { app } = await signedUp("anna@example.ch");
    const mailsBefore = (await listOutboxMails(testDatabase.database, { to: "anna@example.ch" })).length;
    const sameBrowser = createIdentityTestClient(app, { ip: "198.51.100.2" });
    expect((await sameBrowser.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(200);
    expect(await listOutboxMails(testDatabase.database, { to: "anna@example.ch" })).toHaveLength(mailsBefore);

    const otherBrowser = createIdentityTestClient(app, { ip: "198.51.100.3" });
    expect((await otherBrowser.post("/auth/login", { email: "anna@example.ch", password }, { "User-Agent": "Firefox on a stranger's laptop" })).status).toBe(200);
    const [notice] = await listOutboxMails(testDatabase.database, { to: "anna@example.ch" });
    expect(notice?.subject).toBe("New sign-in to your Atelier account");
    expect(notice?.text).toContain("Firefox on a stranger's laptop");
    expect(notice?.text).toContain("198.51.100.3");
  });

  it(`should forget events older than ${securityEventRetentionDays} days`, async () => {
    const { app } = await signedUp("anna@example.ch");
    now = new Date(now.getTime() + (securityEventRetentionDays + 1) * 86_400_000);
    const later = createIdentityTestClient(app, { ip: "198.51.100.4" });
    expect((await later.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(200);
    const listed = await later.get("/api/account/security-events/");
    expect(listed.body.events.map((event: { created_at: string }) => event.created_at)).toEqual([now.toISOString()]);
    const rows = await testDatabase.database.selectFrom("account_security_event").select("created_at").execute();
    expect(rows.map((row) => row.created_at)).toEqual([now.toISOString()]);
  });

  it("should forget the events of accounts that stay dormant, at start-up and every hour after, until stopped", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const startedAt = now;
      await signedUp("anna@example.ch");
      now = new Date(startedAt.getTime() + 100 * 86_400_000);
      await signedUp("bert@example.ch");
      const eventTimesOf = async (email: string) =>
        (
          await testDatabase.database
            .selectFrom("account_security_event")
            .innerJoin("identity_email_address", "identity_email_address.user_id", "account_security_event.user_id")
            .select("account_security_event.created_at")
            .where("identity_email_address.email", "=", email)
            .execute()
        ).map((row) => row.created_at);
      expect(await eventTimesOf("anna@example.ch")).toEqual([startedAt.toISOString()]);

      // Neither signs in again: only the server's own pruning can forget their events.
      now = new Date(startedAt.getTime() + (securityEventRetentionDays + 1) * 86_400_000);
      const pruning = startRetentionPruning({ database: testDatabase.database, clock });
      await pruning.settled();
      expect(await eventTimesOf("anna@example.ch")).toEqual([]);
      expect(await eventTimesOf("bert@example.ch")).toHaveLength(1);

      now = new Date(startedAt.getTime() + (100 + securityEventRetentionDays + 1) * 86_400_000);
      await vi.advanceTimersByTimeAsync(retentionPruneIntervalMilliseconds - 1);
      await pruning.settled();
      expect(await eventTimesOf("bert@example.ch")).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await pruning.settled();
      expect(await eventTimesOf("bert@example.ch")).toEqual([]);

      const bertId = (await testDatabase.database.selectFrom("identity_email_address").select("user_id").where("email", "=", "bert@example.ch").executeTakeFirstOrThrow()).user_id;
      await testDatabase.database
        .insertInto("account_security_event")
        .values({ id: crypto.randomUUID(), user_id: bertId, sequence: 2, type: "signed_in", method: "password", detail: null, ip_address: "198.51.100.1", user_agent: "vitest browser", created_at: "2020-01-01T00:00:00.000Z" })
        .execute();
      await pruning.stop();
      await vi.advanceTimersByTimeAsync(2 * retentionPruneIntervalMilliseconds);
      await pruning.settled();
      expect(await eventTimesOf("bert@example.ch")).toEqual(["2020-01-01T00:00:00.000Z"]);
    } finally {
      vi.useRealTimers();
    }
  });
});
