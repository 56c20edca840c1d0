import { Writable } from "node:stream";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createLogger, createRequestLogMiddleware } from "./logger.ts";

function loggerIntoMemory() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger({ level: "debug", destination }) };
}

describe("given the request log", () => {
  it("should give every line written while a request is answered that request's id, and answer with it", async () => {
    const { lines, log } = loggerIntoMemory();
    const app = new Hono();
    app.use(createRequestLogMiddleware({ logger: log }));
    app.get("/api/work", async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.warn({ err: new Error("the mail server said no") }, "deep in the handler");
      return c.json({ ok: true });
    });
    const [first, second] = await Promise.all([app.request("/api/work"), app.request("/api/work", { headers: { "X-Request-Id": "from-the-proxy-42" } })]);
    const firstId = first!.headers.get("X-Request-Id");
    expect(firstId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers.get("X-Request-Id")).toBe("from-the-proxy-42");
    await new Promise((resolve) => setImmediate(resolve));
    const warnings = lines.filter((line) => line.msg === "deep in the handler");
    expect(warnings.map((line) => line.requestId).sort()).toEqual([firstId, "from-the-proxy-42"].sort());
    expect((warnings[0]!.err as { message: string }).message).toBe("the mail server said no");
    const requests = lines.filter((line) => line.msg === "request");
    expect(requests).toEqual(expect.arrayContaining([expect.objectContaining({ requestId: "from-the-proxy-42", method: "GET", path: "/api/work", status: 200, milliseconds: expect.any(Number) })]));
  });

  it("should log health checks at debug only, and nothing outside a request with a request id", async () => {
    const { lines, log } = loggerIntoMemory();
    const app = new Hono();
    app.use(createRequestLogMiddleware({ logger: log }));
    app.get("/healthz", (c) => c.json({ status: "alive" }));
    await app.request("/healthz");
    log.info("between requests");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.find((line) => line.path === "/healthz")?.level).toBe(20);
    expect(lines.find((line) => line.msg === "between requests")).not.toHaveProperty("requestId");
  });
});
