import { execFile, execFileSync, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { findFreePort } from "./atelier-server.ts";

/** The machine's shared PostgreSQL, as apps/server's tests use it. */
export const testPostgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Whether the PostgreSQL halves run: as in apps/server, `SKIP_POSTGRES_TESTS=1` leaves them out on purpose. */
export const postgresTestsEnabled = process.env.SKIP_POSTGRES_TESTS !== "1";

async function runOnSharedServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: testPostgresUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${testPostgresUrl}. Start it, point TEST_DATABASE_URL at one, or set SKIP_POSTGRES_TESTS=1.`, { cause: error });
  }
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the shared PostgreSQL server, for one server under test; `drop()` removes it (after the
 * server has stopped).
 *
 * @example
 * const database = await createSharedPostgresDatabase();
 * await startAtelierServer({ environment: { DATABASE_URL: database.url } });
 */
export async function createSharedPostgresDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `atelier_resilience_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await runOnSharedServer(`CREATE DATABASE ${name}`);
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => runOnSharedServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Where initdb and pg_ctl are: `POSTGRES_BIN_DIR`, else the newest /usr/lib/postgresql/<version>/bin (Debian). */
export function findPostgresBinDirectory(): string {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((version) => existsSync(path.join(root, version, "bin", "pg_ctl"))) : [];
  const newest = versions.sort((first, second) => Number(second) - Number(first))[0];
  if (!newest) throw new Error("initdb and pg_ctl were not found under /usr/lib/postgresql/*/bin; install PostgreSQL's server package or set POSTGRES_BIN_DIR.");
  return path.join(root, newest, "bin");
}

export type PrivatePostgres = {
  url: string;
  port: number;
  /** `pg_ctl stop`: "fast" ends sessions with 57P01, "immediate" drops them as a crash would. */
  stop: (mode?: "fast" | "immediate") => Promise<void>;
  /** `pg_ctl start`, waiting until it accepts connections. */
  start: () => Promise<void>;
  /** Stops the cluster and removes its folder. */
  destroy: () => void;
  log: () => string;
};

/**
 * A PostgreSQL cluster of its own (initdb into a temporary folder, its own port and socket folder), for tests that
 * stop and start it: the machine's shared server stays untouched. PostgreSQL refuses to run as root, so as root the
 * folder belongs to the `postgres` user and the commands run as that user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const binDirectory = findPostgresBinDirectory();
  const port = await findFreePort();
  const folder = mkdtempSync(path.join(tmpdir(), "atelier-private-postgres-"));
  const dataDirectory = path.join(folder, "data");
  const logFile = path.join(folder, "postgres.log");
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const userId = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const groupId = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(folder, userId, groupId);
  }
  const run = (program: string, args: string[], options: { mayFail?: boolean } = {}) => {
    const command = isRoot ? "runuser" : path.join(binDirectory, program);
    const commandArgs = isRoot ? ["-u", "postgres", "--", path.join(binDirectory, program), ...args] : args;
    const result = spawnSync(command, commandArgs, { encoding: "utf8", timeout: 60_000 });
    if (result.status !== 0 && !options.mayFail) throw new Error(`${program} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  };

  run("initdb", ["-D", dataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const serverOptions = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  // Asynchronous, so that the learners' answers are timed while PostgreSQL stops and starts.
  const runInBackground = async (program: string, args: string[]) => {
    const [command, commandArgs] = isRoot ? ["runuser", ["-u", "postgres", "--", path.join(binDirectory, program), ...args]] : [path.join(binDirectory, program), args];
    await promisify(execFile)(command, commandArgs, { timeout: 60_000 });
  };
  const start = () => runInBackground("pg_ctl", ["-D", dataDirectory, "-l", logFile, "-w", "-t", "30", "-o", serverOptions, "start"]);
  const stop = (mode: "fast" | "immediate" = "fast") => runInBackground("pg_ctl", ["-D", dataDirectory, "-m", mode, "-w", "-t", "30", "stop"]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    destroy: () => {
      run("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "-t", "30", "stop"], { mayFail: true });
      rmSync(folder, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
  };
}
