import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfiguration } from "../config.ts";
import { createServer } from "../create-server.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { listOutboxMails } from "../mail/outbox-mailer.ts";
import type { Mailer } from "../mail/mailer.ts";
import { logger } from "../logging/logger.ts";

const missingBuildDirectory = path.join(os.tmpdir(), "atelier-no-web-build");

function createTestApp(testDatabase: TestDatabase, options: { rateLimit?: string; mailer?: Mailer } = {}) {
  const configuration = loadConfiguration({
    NODE_ENV: "test",
    ALTCHA_MAX_NUMBER: "50",
    CONTACT_RATE_LIMIT: options.rateLimit ?? "100/10m",
    CONTACT_RECIPIENT: "painter@example.ch",
    WEB_BUILD_DIR: missingBuildDirectory,
    TRUST_PROXY: "true",
  });
  return createServer({ configuration, database: testDatabase.database, mailer: options.mailer });
}

async function solveAltchaChallenge(app: ReturnType<typeof createTestApp>): Promise<string> {
  const challenge = (await (await app.request("/captcha/challenge")).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

function postContact(app: ReturnType<typeof createTestApp>, body: unknown, options: { path?: string; contentType?: string; clientAddress?: string } = {}) {
  return app.request(options.path ?? "/messages/contact/", {
    method: "POST",
    headers: {
      "Content-Type": options.contentType ?? "application/json",
      "X-Forwarded-For": options.clientAddress ?? "203.0.113.7",
      // What the web page sends: its own origin, and the csrftoken cookie's value in X-CSRFToken.
      Origin: "http://localhost:3000",
      Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345",
      "X-CSRFToken": "abcdefghijklmnopqrstuvwxyz012345",
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function countStoredMessages(testDatabase: TestDatabase): Promise<number> {
  const row = await testDatabase.database.selectFrom("contact_message").select((expression) => expression.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

describe.each(testDatabaseEngines)("given the contact form on %s", (engine) => {
  let testDatabase: TestDatabase;
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  describe("given a valid message with a solved captcha", () => {
    it("should answer 201, store the message and put a mail to the painter in the outbox", async () => {
      const app = createTestApp(testDatabase);
      const response = await postContact(app, {
        name: "  Anna <Muster>  ",
        email: "anna@example.ch",
        message: "I love <b>the blue</b> painting & want to visit.",
        recaptchaToken: await solveAltchaChallenge(app),
        website: "",
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ message: "Thank you! Your message has been sent." });

      const stored = await testDatabase.database.selectFrom("contact_message").selectAll().execute();
      expect(stored).toEqual([
        expect.objectContaining({ name: "Anna <Muster>", email: "anna@example.ch", ip_address: "203.0.113.7", delivery_status: "sent", delivery_error: null }),
      ]);
      const [mail] = await listOutboxMails(testDatabase.database);
      expect(mail).toMatchObject({ to: "painter@example.ch", replyTo: '"Anna <Muster>" <anna@example.ch>', subject: "New message from Anna <Muster> via the contact form" });
      expect(mail?.text).toContain("I love <b>the blue</b> painting & want to visit.");
      expect(mail?.html).toContain("I love &lt;b&gt;the blue&lt;/b&gt; painting &amp; want to visit.");
      expect(mail?.html).not.toContain("<b>the blue</b>");
    });

    it("should accept the addresses Django accepts, an apostrophe and an internationalized domain, and reply to them", async () => {
      const app = createTestApp(testDatabase);
      for (const email of ["sean.o'brien@example.ie", "anna@bücher.ch"]) {
        const response = await postContact(app, { name: "Reader", email, message: "Hello", recaptchaToken: await solveAltchaChallenge(app) });
        expect(response.status, email).toBe(201);
      }
      const replyTos = (await listOutboxMails(testDatabase.database)).map((mail) => mail.replyTo).sort();
      expect(replyTos).toEqual(['"Reader" <anna@bücher.ch>', `"Reader" <sean.o'brien@example.ie>`]);
    });

    it("should store and mail what both engines store alike: half surrogate pairs as U+FFFD, no invisible or control characters, the message's lines kept", async () => {
      const app = createTestApp(testDatabase);
      const response = await postContact(app, { name: "An\ud800na\u202E\u0007 👩\u200d🎨", email: "anna@example.ch", message: "Hello,\r\nthe blue\u200b one?\ud800", recaptchaToken: await solveAltchaChallenge(app) });
      expect(response.status).toBe(201);
      const stored = await testDatabase.database.selectFrom("contact_message").select(["name", "message"]).executeTakeFirstOrThrow();
      expect(stored).toEqual({ name: "An\ufffdna 👩\u200d🎨", message: "Hello,\nthe blue one?\ufffd" });
      const [mail] = await listOutboxMails(testDatabase.database);
      expect(mail?.subject).toBe("New message from An\ufffdna 👩\u200d🎨 via the contact form");
    });

    it("should refuse an address with an invisible character rather than change it", async () => {
      const app = createTestApp(testDatabase);
      const response = await postContact(app, { name: "Anna", email: "an\u202Ena@example.ch", message: "Hello", recaptchaToken: await solveAltchaChallenge(app) });
      expect(response.status).toBe(400);
      expect(await countStoredMessages(testDatabase)).toBe(0);
    });

    it("should accept the path without the trailing slash", async () => {
      const app = createTestApp(testDatabase);
      const response = await postContact(app, { name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: await solveAltchaChallenge(app) }, { path: "/messages/contact" });
      expect(response.status).toBe(201);
    });
  });

  describe("given the same solved captcha twice", () => {
    it("should refuse the second message and store only the first", async () => {
      const app = createTestApp(testDatabase);
      const body = { name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: await solveAltchaChallenge(app) };
      expect((await postContact(app, body)).status).toBe(201);
      const replayed = await postContact(app, body);
      expect(replayed.status).toBe(400);
      expect(await replayed.json()).toEqual({ message: "This captcha has already been used. Please complete the captcha verification again." });
      expect(await countStoredMessages(testDatabase)).toBe(1);
    });
  });

  describe("given invalid requests", () => {
    const validFields = { name: "Anna", email: "anna@example.ch", message: "Hello" };
    const cases: { description: string; body: (token: string) => unknown; contentType?: string; expectedMessage: string | RegExp }[] = [
      { description: "a missing name", body: (token) => ({ ...validFields, name: undefined, recaptchaToken: token }), expectedMessage: "Please enter your name." },
      { description: "a blank name", body: (token) => ({ ...validFields, name: "   ", recaptchaToken: token }), expectedMessage: "Please enter your name." },
      { description: "an overlong name", body: (token) => ({ ...validFields, name: "a".repeat(201), recaptchaToken: token }), expectedMessage: "Please shorten your name to at most 200 characters." },
      { description: "a missing e-mail", body: (token) => ({ ...validFields, email: "", recaptchaToken: token }), expectedMessage: "Please enter your e-mail address." },
      { description: "a bad e-mail", body: (token) => ({ ...validFields, email: "anna@", recaptchaToken: token }), expectedMessage: "Please enter a valid e-mail address, such as name@example.ch." },
      { description: "an overlong e-mail", body: (token) => ({ ...validFields, email: `${"a".repeat(250)}@example.ch`, recaptchaToken: token }), expectedMessage: "Please use an e-mail address of at most 254 characters." },
      { description: "a missing message", body: (token) => ({ ...validFields, message: undefined, recaptchaToken: token }), expectedMessage: "Please write a message." },
      { description: "an overlong message", body: (token) => ({ ...validFields, message: "a".repeat(5001), recaptchaToken: token }), expectedMessage: "Please shorten your message to at most 5000 characters." },
      { description: "a missing captcha", body: () => ({ ...validFields }), expectedMessage: "Please complete the captcha verification" },
      { description: "an empty captcha", body: () => ({ ...validFields, recaptchaToken: "" }), expectedMessage: "Please complete the captcha verification" },
      { description: "a garbled captcha", body: () => ({ ...validFields, recaptchaToken: "not-a-payload" }), expectedMessage: /captcha answer could not be read/ },
      {
        description: "a captcha with a wrong solution",
        body: (token) => {
          const payload = JSON.parse(Buffer.from(token, "base64").toString("utf8"));
          payload.solution.derivedKey = payload.solution.derivedKey.replace(/^./, (digit: string) => (digit === "0" ? "1" : "0"));
          return { ...validFields, recaptchaToken: Buffer.from(JSON.stringify(payload)).toString("base64") };
        },
        expectedMessage: "The captcha verification failed. Please complete the captcha verification again.",
      },
      { description: "a body that is not JSON", body: () => "name=Anna", expectedMessage: "The message could not be read because the request body is not valid JSON." },
      { description: "a JSON array", body: () => "[]", expectedMessage: /JSON object/ },
      { description: "a form content type", body: (token) => ({ ...validFields, recaptchaToken: token }), contentType: "application/x-www-form-urlencoded", expectedMessage: /Content-Type: application\/json/ },
    ];

    it.each(cases)("should answer 400 for $description and store nothing", async ({ body, contentType, expectedMessage }) => {
      const app = createTestApp(testDatabase);
      const token = await solveAltchaChallenge(app);
      const response = await postContact(app, body(token), { contentType });
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { message: string };
      expect(answer.message).toMatch(expectedMessage instanceof RegExp ? expectedMessage : new RegExp(`^${expectedMessage.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
      expect(await countStoredMessages(testDatabase)).toBe(0);
      expect(await listOutboxMails(testDatabase.database)).toEqual([]);
    });
  });

  it("should answer a 1 MB message with 413 and a message the page shows, and store nothing", async () => {
    const app = createTestApp(testDatabase);
    const token = await solveAltchaChallenge(app);
    const response = await postContact(app, { name: "Anna", email: "anna@example.ch", message: "a".repeat(1024 * 1024), recaptchaToken: token });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: "Your message is too large to send (the limit is 64 KB). Please shorten it and try again." });
    expect(await countStoredMessages(testDatabase)).toBe(0);
  });

  it("should accept a message of 5,000 characters that JSON escapes to six bytes each", async () => {
    const app = createTestApp(testDatabase);
    const token = await solveAltchaChallenge(app);
    const response = await postContact(app, { name: `Anna${"\u0001".repeat(196)}`, email: "anna@example.ch", message: `Hello${"\u0001".repeat(4_990)}there`, recaptchaToken: token });
    expect(response.status, await response.clone().text()).toBe(201);
  });

  describe("given a captcha answered under the server's clock, whatever the system clock says", () => {
    const issuedAt = new Date("2026-11-22T09:00:00.000Z");
    let now: Date;
    let app: ReturnType<typeof createServer>;
    beforeEach(() => {
      now = issuedAt;
      const configuration = loadConfiguration({ NODE_ENV: "test", ALTCHA_MAX_NUMBER: "50", WEB_BUILD_DIR: missingBuildDirectory });
      app = createServer({ configuration, database: testDatabase.database, clock: () => now });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it("should accept it a moment before its ten minutes are up, even with the system clock 400 days ahead", async () => {
      const token = await solveAltchaChallenge(app);
      vi.useFakeTimers({ toFake: ["Date"], now: issuedAt.getTime() + 400 * 24 * 3_600_000 });
      now = new Date(issuedAt.getTime() + 10 * 60 * 1_000 - 1_000);
      const response = await postContact(app, { name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: token });
      expect(response.status).toBe(201);
      expect(await countStoredMessages(testDatabase)).toBe(1);
    });

    it("should answer 400 and store nothing once the server's clock is past its ten minutes, even with the system clock behind", async () => {
      const token = await solveAltchaChallenge(app);
      vi.useFakeTimers({ toFake: ["Date"], now: issuedAt.getTime() - 400 * 24 * 3_600_000 });
      now = new Date(issuedAt.getTime() + 10 * 60 * 1_000);
      const response = await postContact(app, { name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: token });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: "The captcha has expired. Please complete the captcha verification again." });
      expect(await countStoredMessages(testDatabase)).toBe(0);
    });
  });

  describe("given a filled honeypot", () => {
    it("should answer like a success but store and send nothing", async () => {
      const app = createTestApp(testDatabase);
      const response = await postContact(app, { name: "Bot", email: "bot@example.com", message: "Buy now", recaptchaToken: await solveAltchaChallenge(app), website: "https://spam.example" });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ message: "Thank you! Your message has been sent." });
      expect(await countStoredMessages(testDatabase)).toBe(0);
      expect(await listOutboxMails(testDatabase.database)).toEqual([]);
    });
  });

  describe("given more messages from one address than the rate limit allows", () => {
    it("should answer 429 with Retry-After, while other addresses may still send", async () => {
      const app = createTestApp(testDatabase, { rateLimit: "2/10m" });
      const send = async (clientAddress: string) =>
        postContact(app, { name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: await solveAltchaChallenge(app) }, { clientAddress });
      expect((await send("203.0.113.7")).status).toBe(201);
      expect((await send("203.0.113.7")).status).toBe(201);
      const limited = await send("203.0.113.7");
      expect(limited.status).toBe(429);
      expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(await limited.json()).toEqual({ message: "You have sent too many messages in a short time. Please try again in 10 minutes." });
      expect((await send("198.51.100.1")).status).toBe(201);
      expect(await countStoredMessages(testDatabase)).toBe(3);
    });
  });

  describe("given a mailer that fails", () => {
    it("should still answer 201 and keep the message with the status failed", async () => {
      const consoleError = vi.spyOn(logger, "error").mockImplementation(() => {});
      const failingMailer: Mailer = { kind: "smtp", sendMail: async () => ({ status: "error", error: new Error("SMTP is down") }) };
      const app = createTestApp(testDatabase, { mailer: failingMailer });
      const response = await postContact(app, { name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: await solveAltchaChallenge(app) });
      expect(response.status).toBe(201);
      const stored = await testDatabase.database.selectFrom("contact_message").select(["delivery_status", "delivery_error"]).execute();
      expect(stored).toEqual([{ delivery_status: "failed", delivery_error: "SMTP is down" }]);
      expect(consoleError).toHaveBeenCalledWith({ err: expect.any(Error) }, expect.stringContaining("is stored but its e-mail to the painter failed"));
      consoleError.mockRestore();
    });
  });
});

describe("given the build folder does not exist", () => {
  it("should not be created by the contact tests", () => {
    expect(fs.existsSync(missingBuildDirectory)).toBe(false);
  });
});
