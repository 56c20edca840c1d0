import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface RunningAtelierServer {
  /** Where requests go: `http://127.0.0.1:PORT`. */
  url: string;
  /** The public origin the server checks CSRF `Origin` headers against: `http://localhost:PORT`. */
  origin: string;
  port: number;
  dataDirectory: string;
  pid: number;
  /** Whether the process is still running. */
  isRunning: () => boolean;
  /** Everything the process printed so far (the last 200 kB). */
  output: () => string;
  /** Resolves with the exit code when the process ends (`null` when a signal ended it). */
  exited: Promise<number | null>;
  /** Sends SIGKILL and waits for the process to end: the server gets no chance to close anything. */
  kill: () => Promise<void>;
  /** SIGTERM (SIGKILL after 5 s); the data directory is removed unless `keepData`. */
  stop: (options?: { keepData?: boolean }) => Promise<void>;
}

export interface StartAtelierServerOptions {
  /** Reuse a data directory (a restart); a new temporary one by default. */
  dataDirectory?: string;
  /** Reuse a port, so that the learners' base URL stays the same across a restart. */
  port?: number;
  environment?: Record<string, string>;
  /** Where a port is found when `port` is not given (`findFreePort`, unless a test needs another). */
  findPort?: () => Promise<number>;
}

const serverPackageDirectory = path.resolve(import.meta.dirname, "../..");
const maximumKeptOutput = 200_000;

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("No free port was found."))));
    });
  });
}

/**
 * How the server is started: the compiled `dist/main.js`, as `pnpm start` runs it (built by the `build` task that
 * turbo runs before every test task), or `src/main.ts` through tsx when `ATELIER_SERVER_FROM_SOURCE=1`.
 */
function serverCommandArguments(): string[] {
  if (process.env.ATELIER_SERVER_FROM_SOURCE === "1") return ["--import", "tsx", "src/main.ts"];
  const compiledEntry = path.join(serverPackageDirectory, "dist", "main.js");
  if (!existsSync(compiledEntry)) {
    throw new Error(`${compiledEntry} is missing: run \`pnpm --filter @atelier/server build\` first (turbo does before tests), or set ATELIER_SERVER_FROM_SOURCE=1.`);
  }
  return ["--enable-source-maps", compiledEntry];
}

/** Runs apps/server as `pnpm start` does, with these settings, and returns its exit code and output. */
export function spawnAtelierServer(environment: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, serverCommandArguments(), {
    cwd: serverPackageDirectory,
    env: { ...process.env, NODE_ENV: "test", HOST: "127.0.0.1", DATABASE_URL: "", LOG_LEVEL: "info", ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > maximumKeptOutput) output = output.slice(-maximumKeptOutput);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Starts the real server (`src/main.ts` of apps/server) on a free port with its own data directory, the way a user
 * runs it, and waits until it answers. For the browser, load and fault tests of other packages
 * (`import { startAtelierServer } from "@atelier/server/testing"`).
 */
export async function startAtelierServer(options: StartAtelierServerOptions = {}): Promise<RunningAtelierServer> {
  const dataDirectory = options.dataDirectory ?? mkdtempSync(path.join(tmpdir(), "atelier-server-"));
  const findPort = options.findPort ?? findFreePort;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startAtelierServerOn(options.port ?? (await findPort()), dataDirectory, options.environment);
    } catch (error) {
      // A port found free may be taken before the server listens on it: other processes' outgoing connections
      // (PostgreSQL's, Chromium's) take their local ports from the same range (seen once in CI). A port the caller
      // chose is theirs to keep.
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt === maximumPortAttempts) throw error;
    }
  }
}

const maximumPortAttempts = 3;

/** The server exited because another socket held its port. */
class PortTakenError extends Error {}

async function startAtelierServerOn(port: number, dataDirectory: string, environment: Record<string, string> | undefined): Promise<RunningAtelierServer> {
  const origin = `http://localhost:${port}`;
  const url = `http://127.0.0.1:${port}`;
  const { child, output, exited } = spawnAtelierServer({
    PORT: String(port),
    PUBLIC_ORIGIN: origin,
    DATA_DIR: dataDirectory,
    ...environment,
  });

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      const message = `The server exited with code ${child.exitCode} before answering:\n${output()}`;
      throw output().includes("EADDRINUSE") ? new PortTakenError(message) : new Error(message);
    }
    try {
      // Bounded: a socket that accepts and never answers (another program on the port) would hold an unbounded fetch forever.
      const response = await fetch(`${url}/site-config`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server did not answer within 30 s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  const isRunning = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    origin,
    port,
    dataDirectory,
    pid: child.pid ?? -1,
    isRunning,
    exited,
    output,
    kill: async () => {
      if (isRunning()) {
        child.kill("SIGKILL");
        await exited;
      }
    },
    stop: async (stopOptions = {}) => {
      if (isRunning()) {
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (isRunning()) {
          child.kill("SIGKILL");
          await exited;
        }
      }
      if (!stopOptions.keepData) rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}
