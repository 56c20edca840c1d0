import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { listOutboxMails } from "../mail/outbox-mailer.ts";
import { createIdentityTestClient, readLastCode } from "./testing/identity-test-client.ts";
import type * as passwords from "./passwords.ts";
import { createIdentityTestApp } from "./testing/test-app.ts";

// Counts the argon2 hashes, so "the same work on both paths" is checked as work, not as milliseconds.
const hashCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("./passwords.ts", async (importOriginal) => {
  const original = await importOriginal<typeof passwords>();
  return {
    ...original,
    hashPassword: async (password: string) => {
      hashCalls.count += 1;
      return original.hashPassword(password);
    },
  };
});

const password = "correct horse battery";
let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;

describe.each(testDatabaseEngines)("given sign-ups on %s with an address that has an account and one that has none", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-01T10:00:00.000Z");
    const owner = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.1" });
    expect((await owner.post("/auth/signup", { email: "anna@example.ch", password })).status).toBe(401);
    expect((await owner.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@example.ch") })).status).toBe(200);
    now = new Date(now.getTime() + 60 * 60_000);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should answer the sign-up, the session and the resends the same way for both", async () => {
    const outcomes = [];
    for (const email of ["anna@example.ch", "new-person@example.ch"]) {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: email.startsWith("anna") ? "198.51.100.2" : "198.51.100.3" });
      const signup = await browser.post("/auth/signup", { email, password: "another long password" });
      const session = await browser.get("/auth/session");
      const resendAtOnce = await browser.post("/auth/email/verify/resend");
      now = new Date(now.getTime() + 11_000);
      const resendLater = await browser.post("/auth/email/verify/resend");
      outcomes.push({
        signup: { status: signup.status, body: signup.body },
        session: { status: session.status, body: session.body },
        resends: [resendAtOnce.status, resendLater.status],
        retryAfter: resendAtOnce.headers.get("retry-after"),
      });
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0]?.resends).toEqual([429, 200]);
    // allauth's confirm_email limit is one mail per 10 s: the header names that wait on both paths.
    expect(outcomes[0]?.retryAfter).toBe("10");
  });

  it("should hash the password once on either path", async () => {
    for (const email of ["anna@example.ch", "new-person@example.ch"]) {
      hashCalls.count = 0;
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.4" });
      expect((await browser.post("/auth/signup", { email, password: "another long password" })).status).toBe(401);
      expect(hashCalls.count, email).toBe(1);
      now = new Date(now.getTime() + 61_000);
    }
  });

  it("should mail the owner once, however many sign-ups use the address from however many places", async () => {
    const before = (await listOutboxMails(testDatabase.database, { to: "anna@example.ch" })).length;
    for (let attempt = 0; attempt < 15; attempt += 1) {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: `198.51.100.${10 + (attempt % 3)}` });
      expect((await browser.post("/auth/signup", { email: "anna@example.ch", password: "another long password" })).status).toBe(401);
    }
    const mails = (await listOutboxMails(testDatabase.database, { to: "anna@example.ch" })).slice(0, -before || undefined);
    expect(mails.filter((mail) => mail.subject === "You already have an Atelier account")).toHaveLength(1);
  });
});
