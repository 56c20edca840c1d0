import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface RunningAtelierServer {
  /** Always `http://localhost:PORT`: WebAuthn refuses 127.0.0.1, and cookies are per host name. */
  origin: string;
  dataDirectory: string;
  stop: () => Promise<void>;
}

const serverPackageDirectory = path.resolve(import.meta.dirname, "../../../server");

async function findFreePort(): Promise<number> {
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
 * Starts the real server (`pnpm start` of apps/server) on a free port with its own data directory, the way a user runs
 * it, and waits until it answers.
 */
export async function startAtelierServer(environment: Record<string, string> = {}): Promise<RunningAtelierServer> {
  const port = await findFreePort();
  const dataDirectory = mkdtempSync(path.join(tmpdir(), "atelier-e2e-"));
  const origin = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverPackageDirectory,
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_ORIGIN: origin,
      DATA_DIR: dataDirectory,
      DATABASE_URL: "",
      ...environment,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode} before answering:\n${output}`);
    try {
      const response = await fetch(`${origin}/site-config`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server did not answer within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  return {
    origin,
    dataDirectory,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}
