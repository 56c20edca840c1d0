import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { describeDatabaseStartupFailure, isDatabaseUnavailableError } from "./database-errors.ts";
import { testDatabaseEngines, testPostgresUrl } from "./test-databases.ts";

function errorWithCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

async function connectionErrorOf(connectionString: string): Promise<unknown> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.end();
  } catch (error) {
    return error;
  }
  throw new Error(`Connecting to ${connectionString} was expected to fail.`);
}

const closedPortUrl = "postgres://postgres@127.0.0.1:1/atelier";

describe("given an error raised while answering a request", () => {
  it("should call a refused PostgreSQL connection unavailable", async () => {
    expect(isDatabaseUnavailableError(await connectionErrorOf(closedPortUrl))).toBe(true);
  });

  it.each(["57P01", "57P02", "57P03", "08006", "08001"])("should call the PostgreSQL error %s unavailable", (code) => {
    expect(isDatabaseUnavailableError(errorWithCode("terminating connection due to administrator command", code))).toBe(true);
  });

  it.each(["Connection terminated unexpectedly", "Client has encountered a connection error and is not queryable", "timeout exceeded when trying to connect"])(
    "should call node-postgres' %j unavailable",
    (message) => {
      expect(isDatabaseUnavailableError(new Error(message))).toBe(true);
    },
  );

  it("should find the cause of a wrapped error and each error of an AggregateError", () => {
    const refused = errorWithCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED");
    expect(isDatabaseUnavailableError(new Error("The migration failed.", { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailableError(new AggregateError([new Error("other"), refused]))).toBe(true);
  });

  it.each(["SQLITE_BUSY", "SQLITE_CANTOPEN"])("should call SQLite's %s unavailable", (code) => {
    expect(isDatabaseUnavailableError(errorWithCode("database is locked", code))).toBe(true);
  });

  it("should leave bugs and constraint violations to the 500 answer", () => {
    expect(isDatabaseUnavailableError(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailableError(errorWithCode('duplicate key value violates unique constraint "identity_user_pkey"', "23505"))).toBe(false);
    expect(isDatabaseUnavailableError(errorWithCode("UNIQUE constraint failed: identity_user.id", "SQLITE_CONSTRAINT_PRIMARYKEY"))).toBe(false);
    expect(isDatabaseUnavailableError("a string")).toBe(false);
    expect(isDatabaseUnavailableError(null)).toBe(false);
  });
});

describe("given the database could not be opened at start", () => {
  it("should name DATABASE_URL's host and port when nothing listens there", async () => {
    const problem = describeDatabaseStartupFailure(await connectionErrorOf(closedPortUrl), { databaseUrl: closedPortUrl, dataDirectory: "" });
    expect(problem).toBe("No PostgreSQL server answers at 127.0.0.1:1, the host and port in DATABASE_URL; start PostgreSQL or correct DATABASE_URL.");
  });

  it("should name DATABASE_URL's host when it cannot be resolved", () => {
    const databaseUrl = "postgres://postgres@database.invalid/atelier";
    const problem = describeDatabaseStartupFailure(errorWithCode("getaddrinfo ENOTFOUND database.invalid", "ENOTFOUND"), { databaseUrl, dataDirectory: "" });
    expect(problem).toBe('The host name "database.invalid" in DATABASE_URL could not be found; correct the host in DATABASE_URL.');
  });

  it("should say when the server cannot be reached in time", () => {
    const databaseUrl = "postgres://postgres@192.0.2.1:5432/atelier";
    const problem = describeDatabaseStartupFailure(new Error("Connection terminated due to connection timeout"), { databaseUrl, dataDirectory: "" });
    expect(problem).toContain("192.0.2.1:5432, the host and port in DATABASE_URL, could not be reached");
  });

  it.runIf(testDatabaseEngines.includes("postgresql"))("should name the database of DATABASE_URL that does not exist", async () => {
    const url = new URL(testPostgresUrl);
    url.pathname = "/atelier_no_such_database";
    const error = await connectionErrorOf(url.toString());
    expect(describeDatabaseStartupFailure(new Error("The database migration failed.", { cause: error }), { databaseUrl: url.toString(), dataDirectory: "" })).toBe(
      `The database "atelier_no_such_database" named in DATABASE_URL does not exist on the PostgreSQL server at ${url.hostname}:${url.port || "5432"}; create it (createdb atelier_no_such_database) or correct DATABASE_URL.`,
    );
  });

  it("should name DATA_DIR when its folder cannot be created", () => {
    const temporaryDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-errors-"));
    const file = path.join(temporaryDirectory, "a-file");
    fs.writeFileSync(file, "");
    const dataDirectory = path.join(file, "data");
    let error: unknown;
    try {
      fs.mkdirSync(dataDirectory, { recursive: true });
    } catch (caught) {
      error = caught;
    }
    expect(describeDatabaseStartupFailure(error, { databaseUrl: null, dataDirectory })).toBe(
      `The SQLite database cannot be created or written in DATA_DIR (${dataDirectory}); set DATA_DIR to a folder this user may create and write, or fix its permissions.`,
    );
    fs.rmSync(temporaryDirectory, { recursive: true, force: true });
  });

  it("should name DATA_DIR when SQLite cannot open its file", () => {
    const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-errors-"));
    // A folder where the database file should be: SQLite cannot open it.
    fs.mkdirSync(path.join(dataDirectory, "atelier.sqlite"));
    let error: unknown;
    try {
      new SqliteDatabase(path.join(dataDirectory, "atelier.sqlite"));
    } catch (caught) {
      error = caught;
    }
    expect((error as { code?: string }).code).toBe("SQLITE_CANTOPEN");
    expect(describeDatabaseStartupFailure(error, { databaseUrl: null, dataDirectory })).toContain(`in DATA_DIR (${dataDirectory})`);
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  });

  it("should leave other errors, which are bugs, to the stack trace", () => {
    expect(describeDatabaseStartupFailure(new TypeError("Cannot read properties of undefined"), { databaseUrl: null, dataDirectory: "/tmp" })).toBeNull();
    expect(describeDatabaseStartupFailure(errorWithCode("syntax error", "42601"), { databaseUrl: closedPortUrl, dataDirectory: "" })).toBeNull();
  });
});
