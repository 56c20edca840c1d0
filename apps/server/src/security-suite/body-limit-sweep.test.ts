import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../database/test-databases.ts";
import { requestBodyFamilyOf, requestBodyLimitBytesByFamily, type RequestBodyFamily } from "../http/request-body-limits.ts";
import { foreignOrigin } from "./persona-client.ts";
import { listRegisteredRoutes } from "./route-table.ts";
import { createSecurityTestApp, type SecurityTestApp } from "./security-world.ts";

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE", "ALL"]);

/** Whether an answer has the 413 shape of the family's API (allauth's envelope, the study API's `error`, `message`). */
function hasTooLargeShape(family: RequestBodyFamily, body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const record = body as { status?: unknown; errors?: { code?: unknown; message?: unknown }[]; error?: unknown; message?: unknown };
  if (family === "identity") return record.status === 413 && record.errors?.[0]?.code === "request_too_large" && typeof record.errors[0].message === "string";
  if (family === "study") return typeof record.error === "string" && record.error === record.message;
  return typeof record.message === "string" && record.message.length > 0;
}

function concretePathOf(pattern: string): string {
  return pattern.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "x").replace(/\*/g, "x");
}

describe("given the whole server and its route table", () => {
  let testDatabase: TestDatabase;
  let webBuildDirectory: string;
  let app: SecurityTestApp;
  beforeAll(async () => {
    testDatabase = await openTestDatabase("sqlite");
    webBuildDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-security-empty-web-"));
    app = createSecurityTestApp(testDatabase, { webBuildDirectory });
  });
  afterAll(async () => {
    await testDatabase.destroy();
    fs.rmSync(webBuildDirectory, { recursive: true, force: true });
  });

  it("should refuse one byte over the limit on every unsafe route with 413 in its API's shape, before the CSRF check, and accept the limit itself past the size check", async () => {
    const routes = listRegisteredRoutes(app).filter((route) => unsafeMethods.has(route.method));
    expect(routes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const route of routes) {
      const concretePath = concretePathOf(route.path);
      const family = requestBodyFamilyOf(concretePath);
      // The subtitle upload has its own limit, tested with the study API.
      if (family === null) continue;
      const method = route.method === "ALL" ? "POST" : route.method;
      const limit = requestBodyLimitBytesByFamily[family];
      const headers = { Origin: foreignOrigin, "Content-Type": "application/json" };
      const over = await app.request(concretePath, { method, headers: { ...headers, "Content-Length": String(limit + 1) }, body: "{}" });
      const overBody: unknown = await over.json().catch(() => null);
      if (over.status !== 413 || over.headers.get("connection") !== "close" || !hasTooLargeShape(family, overBody)) {
        failures.push(`${route.key} (${family}) over the limit: ${over.status} ${JSON.stringify(overBody).slice(0, 160)}`);
      }
      const atTheLimit = await app.request(concretePath, { method, headers: { ...headers, "Content-Length": String(limit) }, body: "{}" });
      if (atTheLimit.status === 413) failures.push(`${route.key} (${family}) at the limit: 413`);
    }
    expect(failures).toEqual([]);
  });
});
