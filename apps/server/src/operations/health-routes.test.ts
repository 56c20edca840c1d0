import { afterEach, describe, expect, it } from "vitest";
import { loadConfiguration } from "../config.ts";
import { createServer } from "../create-server.ts";
import { openDatabase } from "../database/open-database.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createServerLifecycle } from "./server-lifecycle.ts";

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
