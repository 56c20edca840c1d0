import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort, spawnAtelierServer } from "./support/atelier-server.ts";
import { recordFaultFigures } from "./support/fault-figures.ts";
import { postgresTestsEnabled, testPostgresUrl } from "./support/postgres.ts";

let temporaryDirectory: string;
const exitCodes: number[] = [];

beforeAll(() => {
  temporaryDirectory = mkdtempSync(path.join(tmpdir(), "atelier-startup-"));
});

afterAll(() => {
  rmSync(temporaryDirectory, { recursive: true, force: true });
  if (exitCodes.length > 0) recordFaultFigures({ "startup.cases": exitCodes.length, "startup.nonZeroExits": exitCodes.filter((code) => code !== 0).length });
});

/** Starts the server with these settings and expects it to stop by itself within 20 s. */
async function startExpectingFailure(environment: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const port = await findFreePort();
  const { child, output, exited } = spawnAtelierServer({ PORT: String(port), PUBLIC_ORIGIN: `http://localhost:${port}`, DATA_DIR: path.join(temporaryDirectory, "data"), ...environment });
  const timeout = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const code = await exited;
  clearTimeout(timeout);
  exitCodes.push(code ?? -1);
  return { code, output: output().trim() };
}

function expectOneSentenceWithoutStack(output: string, setting: string): void {
  expect(output.split("\n")).toHaveLength(1);
  expect(output).toContain(setting);
  expect(output).not.toMatch(/^\s+at /m);
}

describe("given a database the server cannot use at start", () => {
  it("should name DATABASE_URL and exit non-zero when nothing listens at its host and port", async () => {
    const closedPort = await findFreePort();
    const { code, output } = await startExpectingFailure({ DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/atelier` });
    expect(code).toBe(1);
    expectOneSentenceWithoutStack(output, "DATABASE_URL");
    expect(output).toBe(`No PostgreSQL server answers at 127.0.0.1:${closedPort}, the host and port in DATABASE_URL; start PostgreSQL or correct DATABASE_URL.`);
  });

  it("should name DATABASE_URL and exit non-zero when its host name is unknown", async () => {
    const { code, output } = await startExpectingFailure({ DATABASE_URL: "postgres://postgres@atelier-database.invalid:5432/atelier" });
    expect(code).toBe(1);
    expectOneSentenceWithoutStack(output, "DATABASE_URL");
    expect(output).toContain('"atelier-database.invalid"');
  });

  it.runIf(postgresTestsEnabled)("should name the database and exit non-zero when it does not exist on the server", async () => {
    const url = new URL(testPostgresUrl);
    url.pathname = "/atelier_resilience_missing";
    const { code, output } = await startExpectingFailure({ DATABASE_URL: url.toString() });
    expect(code).toBe(1);
    expectOneSentenceWithoutStack(output, "DATABASE_URL");
    expect(output).toContain('The database "atelier_resilience_missing" named in DATABASE_URL does not exist');
  });

  it("should name DATA_DIR and exit non-zero when its folder cannot be created", async () => {
    const file = path.join(temporaryDirectory, "a-file");
    writeFileSync(file, "");
    const { code, output } = await startExpectingFailure({ DATA_DIR: path.join(file, "data") });
    expect(code).toBe(1);
    expectOneSentenceWithoutStack(output, "DATA_DIR");
  });

  it("should name DATA_DIR and exit non-zero when the database file cannot be opened", async () => {
    const dataDirectory = path.join(temporaryDirectory, "unopenable");
    // A folder where the SQLite file belongs; as root, permissions would not stop the server.
    mkdirSync(path.join(dataDirectory, "atelier.sqlite"), { recursive: true });
    const { code, output } = await startExpectingFailure({ DATA_DIR: dataDirectory });
    expect(code).toBe(1);
    expectOneSentenceWithoutStack(output, "DATA_DIR");
  });
});

describe("given a local OpenID provider port that is taken", () => {
  it("should name LOCAL_OIDC_PORT and exit non-zero", async () => {
    const blocker = createServer();
    const takenPort = await new Promise<number>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve((blocker.address() as AddressInfo).port)));
    try {
      const { code, output } = await startExpectingFailure({ NODE_ENV: "development", LOCAL_OIDC_PORT: String(takenPort) });
      expect(code).toBe(1);
      expect(output.split("\n").at(-1)).toBe(
        `The local OpenID provider could not start: port ${takenPort} is taken. Set LOCAL_OIDC_PORT to a free port (0 picks one), or LOCAL_OIDC_PROVIDER=false.`,
      );
      expect(output).not.toMatch(/^\s+at /m);
    } finally {
      blocker.close();
    }
  });
});

describe("given a public PUBLIC_ORIGIN without the production settings", () => {
  it("should refuse to start whatever NODE_ENV says, and name every setting to give", async () => {
    for (const nodeEnvironment of ["", "development"]) {
      const { code, output } = await startExpectingFailure({ NODE_ENV: nodeEnvironment, PUBLIC_ORIGIN: "https://atelier.example.ch" });
      expect(code).toBe(1);
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain("Atelier is running");
      if (nodeEnvironment === "") {
        for (const setting of ["SECRET_KEY", "SMTP_URL", "MAIL_FROM", "CONTACT_RECIPIENT", "BILLING_PROVIDER"]) expect(output).toContain(setting);
      } else {
        expect(output).toContain("PUBLIC_ORIGIN https://atelier.example.ch is reachable from other machines, but NODE_ENV is development");
      }
    }
  });
});
