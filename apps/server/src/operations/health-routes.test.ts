import { afterEach, describe, expect, it } from "vitest";
import { loadConfiguration } from "../config.ts";
import { createServer } from "../create-server.ts";
import { openDatabase } from "../database/open-database.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createServerLifecycle, drainingMessage } from "./server-lifecycle.ts";

const configuration = loadConfiguration({ WEB_BUILD_DIR: "/nonexistent-web-build" });

describe.each(testDatabaseEngines)("given the server on %s", (engine) => {
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  it("should answer /healthz and /readyz 200 without caching while the database answers", async () => {
    testDatabase = await openTestDatabase(engine);
    const app = createServer({ configuration, database: testDatabase.database });
    const alive = await app.request("/healthz");
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ status: "alive" });
    expect(alive.headers.get("Cache-Control")).toBe("no-store");
    const ready = await app.request("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    expect(ready.headers.get("Cache-Control")).toBe("no-store");
  });

  it("should answer /readyz 503 and close each connection once the process drains, while /healthz stays 200", async () => {
    testDatabase = await openTestDatabase(engine);
    const lifecycle = createServerLifecycle();
    const app = createServer({ configuration, database: testDatabase.database, lifecycle });
    expect((await app.request("/readyz")).headers.get("Connection")).toBeNull();
    lifecycle.state = "draining";
    const ready = await app.request("/readyz");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "draining", message: "This process is shutting down; send new requests to another one." });
    expect(ready.headers.get("Connection")).toBe("close");
    const alive = await app.request("/healthz");
    expect(alive.status).toBe(200);
    expect(alive.headers.get("Connection")).toBe("close");
  });

  it("should answer a request that arrives while draining 503 in its API's shape without running it", async () => {
    testDatabase = await openTestDatabase(engine);
    const lifecycle = createServerLifecycle();
    const app = createServer({ configuration, database: testDatabase.database, lifecycle });
    const contact = { name: "Ada", email: "ada@example.org", message: "Hello", recaptchaToken: "x" };
    const post = (path: string, body: unknown) =>
      app.request(path, { method: "POST", headers: { "Content-Type": "application/json", Origin: configuration.publicOrigin, Cookie: "csrftoken=t", "X-CSRFToken": "t" }, body: JSON.stringify(body) });
    lifecycle.state = "draining";
    const message = await post("/messages/contact", contact);
    expect(message.status).toBe(503);
    expect(message.headers.get("X-Atelier-Draining")).toBe("1");
    expect(message.headers.get("Retry-After")).toBe("1");
    expect(message.headers.get("Connection")).toBe("close");
    expect(await message.json()).toEqual({ message: drainingMessage });
    expect(await testDatabase.database.selectFrom("contact_message").selectAll().execute()).toEqual([]);
    const study = await app.request("/api/subtitle-groups/");
    expect(await study.json()).toEqual({ message: drainingMessage, error: drainingMessage });
    const identity = await post("/_allauth/browser/v1/auth/login", { email: "ada@example.org", password: "x" });
    expect(await identity.json()).toEqual({ status: 503, message: drainingMessage });
    expect(lifecycle.requestsInProgress).toBe(0);
    expect(lifecycle.lastDrainingAnswerAt).not.toBeNull();
  });
});

describe("given a database that does not answer", () => {
  it("should answer /readyz 503 without naming the database's address, and /healthz 200", async () => {
    // Port 1 on loopback: nothing listens, so the connection is refused at once.
    const unreachable = openDatabase({ databaseUrl: "postgres://atelier:secret@127.0.0.1:1/atelier", dataDirectory: "" });
    try {
      const app = createServer({ configuration, database: unreachable.database });
      const ready = await app.request("/readyz");
      expect(ready.status).toBe(503);
      const text = await ready.text();
      expect(JSON.parse(text)).toEqual({ status: "unavailable", message: "The database does not answer." });
      expect(text).not.toContain("127.0.0.1");
      expect((await app.request("/healthz")).status).toBe(200);
    } finally {
      await unreachable.close();
    }
  });

  it("should answer /readyz 503 for a closed SQLite database", async () => {
    const testDatabase = await openTestDatabase("sqlite");
    const app = createServer({ configuration, database: testDatabase.database });
    await testDatabase.destroy();
    const ready = await app.request("/readyz");
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { status: string }).status).toBe("unavailable");
  });

});
