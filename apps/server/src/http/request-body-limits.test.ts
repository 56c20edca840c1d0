import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfiguration } from "../config.ts";
import { createServer } from "../create-server.ts";
import { openTestDatabase, type TestDatabase } from "../database/test-databases.ts";
import { Hono } from "hono";
import { createBodyLimit, requestBodyFamilyOf, requestBodyLimitBytesByFamily } from "./request-body-limits.ts";

const testOrigin = "http://localhost:3000";
const csrfToken = "abcdefghijklmnopqrstuvwxyz012345";
let testDatabase: TestDatabase;
let app: ReturnType<typeof createServer>;

beforeAll(async () => {
  testDatabase = await openTestDatabase("sqlite");
  const configuration = loadConfiguration({ NODE_ENV: "test", PUBLIC_ORIGIN: testOrigin, WEB_BUILD_DIR: path.join(os.tmpdir(), "atelier-no-web-build") });
  app = createServer({ configuration, database: testDatabase.database });
});
afterAll(async () => {
  await testDatabase.destroy();
});

/** A body of `totalBytes` made on demand, 64 KiB at a time, that counts how much of it was read. */
function countingStream(totalBytes: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const progress = { pulledBytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (progress.pulledBytes >= totalBytes) {
        controller.close();
        return;
      }
      const next = chunk.subarray(0, Math.min(chunk.length, totalBytes - progress.pulledBytes));
      progress.pulledBytes += next.length;
      controller.enqueue(next);
    },
  });
  return { stream, progress };
}

/** What a browser page sends: same origin, the csrftoken cookie, and (unless left out) its value in X-CSRFToken. */
function browserHeaders(options: { withCsrfHeader?: boolean; contentType?: string; contentLength?: number } = {}): Record<string, string> {
  return {
    Origin: testOrigin,
    Cookie: `csrftoken=${csrfToken}`,
    "Content-Type": options.contentType ?? "application/json",
    ...(options.withCsrfHeader === false ? {} : { "X-CSRFToken": csrfToken }),
    ...(options.contentLength === undefined ? {} : { "Content-Length": String(options.contentLength) }),
  };
}

function postStreamed(url: string, totalBytes: number, headers: Record<string, string>) {
  const { stream, progress } = countingStream(totalBytes);
  const answer = app.request(url, { method: "POST", headers, body: stream, duplex: "half" } as RequestInit);
  return { answer, progress };
}

describe("requestBodyFamilyOf", () => {
  it("should give each API its family and leave the subtitle upload to its own limit", () => {
    expect(requestBodyFamilyOf("/_allauth/browser/v1/auth/login")).toBe("identity");
    expect(requestBodyFamilyOf("/_allauth/app/v1/auth/login")).toBe("identity");
    expect(requestBodyFamilyOf("/api/subtitle-groups/g/rename/")).toBe("study");
    expect(requestBodyFamilyOf("/api/upload-subtitles/")).toBeNull();
    expect(requestBodyFamilyOf("/api/upload-subtitles")).toBeNull();
    expect(requestBodyFamilyOf("/messages/contact/")).toBe("contact");
    expect(requestBodyFamilyOf("/user/create-checkout-session")).toBe("billing");
    expect(requestBodyFamilyOf("/stripe/webhook")).toBe("stripe-webhook");
    expect(requestBodyFamilyOf("/dev/billing/checkout/cs_1/pay")).toBe("development-billing");
    expect(requestBodyFamilyOf("/dev/outbox/clear")).toBe("other");
    expect(requestBodyFamilyOf("/contact")).toBe("other");
    expect(requestBodyFamilyOf("/no/such/path")).toBe("other");
  });
});

describe("given a body larger than its family's limit, announced by Content-Length", () => {
  it("should answer a sign-in with 413 in allauth's error shape before the CSRF check reads the multipart form", async () => {
    const { answer, progress } = postStreamed("/_allauth/browser/v1/auth/login", 2 * 1024 * 1024, browserHeaders({ withCsrfHeader: false, contentType: "multipart/form-data; boundary=x", contentLength: 400 * 1024 * 1024 }));
    const response = await answer;
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({ status: 413, errors: [{ message: expect.stringContaining("64 KB"), code: "request_too_large" }] });
    expect(progress.pulledBytes).toBeLessThanOrEqual(128 * 1024);
  });

  it("should answer the study API with 413 and both error and message", async () => {
    const response = await app.request("/api/subtitle-groups/some-group/rename/", { method: "POST", headers: browserHeaders({ contentLength: 2 * 1024 * 1024 }), body: "{}" });
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: string; message: string };
    expect(body).toEqual({ error: expect.stringContaining("1 MB"), message: body.error });
  });

  it("should answer the contact form with 413 and a message the page can show", async () => {
    const response = await app.request("/messages/contact/", { method: "POST", headers: browserHeaders({ contentLength: 10 * 1024 * 1024 }), body: "{}" });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: "Your message is too large to send (the limit is 64 KB). Please shorten it and try again." });
  });

  it("should answer the billing API and the webhook with 413 and a message", async () => {
    const checkout = await app.request("/user/create-checkout-session", { method: "POST", headers: browserHeaders({ contentLength: 65 * 1024 }), body: "{}" });
    expect(checkout.status).toBe(413);
    expect(await checkout.json()).toEqual({ message: expect.stringContaining("64 KB") });
    const webhook = await app.request("/stripe/webhook", { method: "POST", headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=x", "Content-Length": String(600 * 1024 * 1024) }, body: "{}" });
    expect(webhook.status).toBe(413);
    expect(await webhook.json()).toEqual({ message: expect.stringContaining("1 MB") });
  });

  it("should answer the development billing forms, the site and unknown paths with 413 above 16 KB", async () => {
    for (const url of ["/dev/billing/checkout/cs_1/pay", "/contact", "/no/such/path"]) {
      const response = await app.request(url, { method: "POST", headers: browserHeaders({ contentType: "application/x-www-form-urlencoded", contentLength: 16 * 1024 + 1 }), body: "a=b" });
      expect(response.status, url).toBe(413);
      expect(await response.json()).toEqual({ message: expect.stringContaining("16 KB") });
    }
  });
});

describe("given a body without Content-Length (chunked)", () => {
  it("should stop reading a sign-in form at the limit and answer 413, not the CSRF 403 after reading it all", async () => {
    const { answer, progress } = postStreamed("/_allauth/browser/v1/auth/login", 20 * 1024 * 1024, browserHeaders({ withCsrfHeader: false, contentType: "multipart/form-data; boundary=x" }));
    const response = await answer;
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe("request_too_large");
    expect(progress.pulledBytes).toBeLessThanOrEqual(requestBodyLimitBytesByFamily.identity + 128 * 1024);
  });

  it("should stop reading a webhook at 1 MB and answer 413", async () => {
    const { answer, progress } = postStreamed("/stripe/webhook", 20 * 1024 * 1024, { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=x" });
    expect((await answer).status).toBe(413);
    expect(progress.pulledBytes).toBeLessThanOrEqual(requestBodyLimitBytesByFamily["stripe-webhook"] + 128 * 1024);
  });

  it("should let mark-studied carry one id per card of the largest group (20,000 cards) past the size check", async () => {
    const pairIds = Array.from({ length: 20_000 }, () => crypto.randomUUID());
    const response = await app.request("/api/subtitle-groups/some-group/mark-studied/", { method: "POST", headers: browserHeaders(), body: JSON.stringify({ pairIds }) });
    expect(response.status).not.toBe(413);
  });

  it("should hand a body within the limit to the route unchanged", async () => {
    const { answer } = postStreamed("/_allauth/browser/v1/auth/login", 10, browserHeaders());
    const response = await answer;
    // Ten letters "a" are not JSON: the route read the body and refused it as input, not as size.
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).not.toContain("request_too_large");
  });
});

describe("createBodyLimit, for a route with a limit of its own", () => {
  const routeWithItsOwnLimit = new Hono();
  routeWithItsOwnLimit.post("/upload", createBodyLimit({ maximumBytes: 1024, tooLargeBody: () => ({ error: "Too large.", message: "Too large." }) }), async (c) => c.json({ receivedBytes: (await c.req.arrayBuffer()).byteLength }));

  it("should answer 413 with the given body and Connection: close above the limit, announced or chunked", async () => {
    const announced = await routeWithItsOwnLimit.request("/upload", { method: "POST", headers: { "Content-Length": "1025" }, body: "x" });
    expect(announced.status).toBe(413);
    expect(announced.headers.get("connection")).toBe("close");
    expect(await announced.json()).toEqual({ error: "Too large.", message: "Too large." });
    const chunked = await routeWithItsOwnLimit.request("/upload", { method: "POST", body: "x".repeat(1025) });
    expect(chunked.status).toBe(413);
  });

  it("should hand a body of unknown length to the route as it arrives, before its client has sent all of it", async () => {
    const route = new Hono();
    route.post("/upload", createBodyLimit({ maximumBytes: 1024, tooLargeBody: () => ({ error: "Too large." }) }), async (c) => {
      const reader = (c.req.raw.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      await reader.cancel();
      return c.json({ firstChunkBytes: first.value?.byteLength });
    });
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new Uint8Array(100));
        await finished;
        controller.close();
      },
    });
    const response = await route.request("/upload", { method: "POST", body, duplex: "half" } as RequestInit);
    expect(await response.json()).toEqual({ firstChunkBytes: 100 });
    finish();
  });

  it("should hand the whole body to the route at the limit", async () => {
    const response = await routeWithItsOwnLimit.request("/upload", { method: "POST", body: "x".repeat(1024) });
    expect(await response.json()).toEqual({ receivedBytes: 1024 });
  });
});
