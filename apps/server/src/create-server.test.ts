import os from "node:os";
import path from "node:path";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfiguration } from "./config.ts";
import { createServer } from "./create-server.ts";
import { openDatabase, type OpenedDatabase } from "./database/open-database.ts";
import { openTestDatabase, type TestDatabase } from "./database/test-databases.ts";
import { logger } from "./logging/logger.ts";

const missingBuildDirectory = path.join(os.tmpdir(), "atelier-no-web-build");
const productionEnvironment = {
  NODE_ENV: "production",
  SECRET_KEY: "a-production-secret-that-is-long-enough-0123456789",
  SMTP_URL: "smtp://127.0.0.1:2525",
  MAIL_FROM: "atelier@example.ch",
  CONTACT_RECIPIENT: "painter@example.ch",
  PUBLIC_ORIGIN: "https://atelier.example.ch",
  WEB_BUILD_DIR: missingBuildDirectory,
  STRIPE_SECRET_KEY: "sk_live_atelier_example_key",
  STRIPE_WEBHOOK_SECRET: "whsec_atelier_example",
  STRIPE_PRICE_IDS: JSON.stringify({ basic_month: "price_1", basic_year: "price_2", plus_month: "price_3", plus_year: "price_4", studio_month: "price_5", studio_year: "price_6" }),
};

let testDatabase: TestDatabase;
beforeEach(async () => {
  testDatabase = await openTestDatabase("sqlite");
});
afterEach(async () => {
  await testDatabase.destroy();
  vi.restoreAllMocks();
});

describe("given the default development configuration", () => {
  it("should send API answers uncompressed, with their length, even to clients that accept gzip", async () => {
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: testDatabase.database });
    const response = await app.request("/_allauth/browser/v1/config", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBeNull();
    expect(((await response.json()) as { status: number }).status).toBe(200);
  });

  it("should tell the page to use ALTCHA and no analytics", async () => {
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: testDatabase.database });
    const response = await app.request("/site-config");
    expect(await response.json()).toEqual({ captcha: { provider: "altcha", challengeUrl: "/captcha/challenge" }, analytics: null });
  });

  it("should hand out a signed ALTCHA challenge that is never cached", async () => {
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: testDatabase.database });
    const response = await app.request("/captcha/challenge");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({
      parameters: expect.objectContaining({ algorithm: "PBKDF2/SHA-256", cost: 1, keyPrefix: expect.any(String), keySignature: expect.any(String), data: { expiresAtMilliseconds: expect.any(Number) } }),
      signature: expect.any(String),
    });
  });

  it("should list the development outbox as JSON and as a page", async () => {
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: testDatabase.database });
    expect(await (await app.request("/dev/outbox")).json()).toEqual({ mails: [] });
    const page = await app.request("/dev/outbox/view");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("No mail has been sent yet.");
  });

  it.each(["/messages/unknown", "/captcha", "/dev/nothing", "/user/1", "/stripe/webhook", "/api/account/unknown"])("should answer the unknown API path %s with a JSON 404", async (apiPath) => {
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: testDatabase.database });
    const response = await app.request(apiPath);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: expect.stringContaining(apiPath) });
  });

  it("should answer an unknown path of the study API and of allauth's API in that API's own shape", async () => {
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: testDatabase.database });
    const study = await app.request("/api/unknown");
    expect(study.status).toBe(404);
    expect(await study.json()).toEqual({ error: expect.stringContaining("/api/unknown") });
    const allauth = await app.request("/_allauth/browser/v1/auth");
    expect(allauth.status).toBe(404);
    expect(await allauth.json()).toEqual({ status: 404, message: expect.stringContaining("/_allauth/browser/v1/auth") });
  });

  it("should answer an unexpected error with a generic 500 message and log it", async () => {
    const consoleError = vi.spyOn(logger, "error").mockImplementation(() => {});
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: testDatabase.database });
    await testDatabase.destroy();
    testDatabase = await openTestDatabase("sqlite");
    const response = await app.request("/dev/outbox");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: "Something went wrong on our side. Please try again later." });
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(consoleError).toHaveBeenCalled();
  });
});

describe("given a database that is away", () => {
  // Nothing listens on port 1: every query fails with ECONNREFUSED, as while PostgreSQL restarts.
  let unreachable: OpenedDatabase;
  beforeEach(() => {
    unreachable = openDatabase({ databaseUrl: "postgres://postgres@127.0.0.1:1/atelier", dataDirectory: "" });
  });
  afterEach(async () => {
    await unreachable.close();
  });
  const csrfHeaders = { Origin: "http://localhost:3000", Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345", "X-CSRFToken": "abcdefghijklmnopqrstuvwxyz012345" };
  const unavailableMessage = "The database is unavailable for a moment. Please try again in a few seconds.";

  it("should answer 503 with Retry-After, not 500, and warn once for many requests", async () => {
    const consoleWarn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const consoleError = vi.spyOn(logger, "error").mockImplementation(() => {});
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: unreachable.database });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await app.request("/dev/outbox");
      expect(response.status).toBe(503);
      expect(response.headers.get("Retry-After")).toBe("5");
      expect(await response.json()).toEqual({ message: unavailableMessage });
    }
    expect(consoleWarn).toHaveBeenCalledTimes(1);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("should answer the study API's 503 with its error field too", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: unreachable.database });
    const response = await app.request("/api/subtitle-groups/");
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.json()).toEqual({ message: unavailableMessage, error: unavailableMessage });
  });

  it("should answer the identity API's 503 in its envelope", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const app = createServer({ configuration: loadConfiguration({ WEB_BUILD_DIR: missingBuildDirectory }), database: unreachable.database });
    const response = await app.request("/_allauth/browser/v1/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...csrfHeaders },
      body: JSON.stringify({ email: "anna@example.ch", password: "correct horse battery" }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.json()).toEqual({ status: 503, message: unavailableMessage });
  });
});

describe("given production", () => {
  it("should refuse the development outbox with a JSON 404", async () => {
    const app = createServer({ configuration: loadConfiguration(productionEnvironment), database: testDatabase.database });
    for (const outboxPath of ["/dev/outbox", "/dev/outbox/view"]) {
      const response = await app.request(outboxPath);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
  });

  it("should send Strict-Transport-Security for an https origin", async () => {
    const app = createServer({ configuration: loadConfiguration(productionEnvironment), database: testDatabase.database });
    expect((await app.request("/site-config")).headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
  });
});

describe("given reCAPTCHA and analytics", () => {
  const recaptchaEnvironment = {
    WEB_BUILD_DIR: missingBuildDirectory,
    CAPTCHA_PROVIDER: "recaptcha",
    RECAPTCHA_SITE_KEY: "site-key",
    RECAPTCHA_SECRET_KEY: "secret-key",
    ANALYTICS_SCRIPT_URL: "https://plausible.io/js/script.js",
    ANALYTICS_DOMAIN: "atelier.example.ch",
  };

  // The contact form is CSRF-protected like every unsafe request: same Origin, cookie echoed in X-CSRFToken.
  const contactCsrfHeaders = { Origin: "http://localhost:3000", Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345", "X-CSRFToken": "abcdefghijklmnopqrstuvwxyz012345" };

  function createFakeSiteverify(answer: unknown) {
    const requests: URLSearchParams[] = [];
    const fake = new Hono();
    fake.post("/recaptcha/api/siteverify", async (c) => {
      requests.push(new URLSearchParams(await c.req.text()));
      return c.json(answer);
    });
    const fakeFetch: typeof fetch = async (input, init) => fake.request(new Request(input, init));
    return { requests, fakeFetch };
  }

  it("should give the page the site key and the analytics script", async () => {
    const app = createServer({ configuration: loadConfiguration(recaptchaEnvironment), database: testDatabase.database });
    expect(await (await app.request("/site-config")).json()).toEqual({
      captcha: { provider: "recaptcha", siteKey: "site-key" },
      analytics: { scriptUrl: "https://plausible.io/js/script.js", domain: "atelier.example.ch" },
    });
    expect((await app.request("/captcha/challenge")).status).toBe(404);
  });

  it("should accept a message whose token Google confirms", async () => {
    const { requests, fakeFetch } = createFakeSiteverify({ success: true });
    const app = createServer({ configuration: loadConfiguration(recaptchaEnvironment), database: testDatabase.database, fetch: fakeFetch });
    const response = await app.request("/messages/contact/", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...contactCsrfHeaders },
      body: JSON.stringify({ name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: "google-token" }),
    });
    expect(response.status).toBe(201);
    expect(requests[0]?.get("secret")).toBe("secret-key");
    expect(requests[0]?.get("response")).toBe("google-token");
  });

  it("should refuse a message whose token Google rejects", async () => {
    const { fakeFetch } = createFakeSiteverify({ success: false, "error-codes": ["invalid-input-response"] });
    const app = createServer({ configuration: loadConfiguration(recaptchaEnvironment), database: testDatabase.database, fetch: fakeFetch });
    const response = await app.request("/messages/contact/", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...contactCsrfHeaders },
      body: JSON.stringify({ name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: "forged" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "The captcha verification failed. Please complete the captcha verification again." });
  });

  it("should answer 503 when Google cannot be reached", async () => {
    const unreachableFetch: typeof fetch = async () => {
      throw new TypeError("fetch failed");
    };
    const app = createServer({ configuration: loadConfiguration(recaptchaEnvironment), database: testDatabase.database, fetch: unreachableFetch });
    const response = await app.request("/messages/contact/", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...contactCsrfHeaders },
      body: JSON.stringify({ name: "Anna", email: "anna@example.ch", message: "Hello", recaptchaToken: "google-token" }),
    });
    expect(response.status).toBe(503);
  });
});
