// Time from a fresh clone to the first page served: `git clone` this repository's HEAD into a temporary directory,
// run the README's commands (`npx --yes pnpm@… install`, then `… start` on a free port) and poll until `/` answers 200.
// Every command runs in its own process group, which is killed on every path out, Ctrl-C included.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { resolveRepositoryRoot, writeBenchResult } from "./bench-result.ts";

const repositoryRoot = resolveRepositoryRoot();
const packageManager = (JSON.parse(readFileSync(path.join(repositoryRoot, "package.json"), "utf8")) as { packageManager: string }).packageManager;
const timeoutMilliseconds = Number(process.env.BENCH_FRESH_CLONE_TIMEOUT_MINUTES ?? 20) * 60_000;
const liveProcessGroups = new Set<number>();
let temporaryDirectory: string | null = null;

function killProcessGroup(processGroupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-processGroupId, signal);
  } catch {
    // The group has already gone.
  }
}

function cleanUpSynchronously(): void {
  for (const processGroupId of liveProcessGroups) killProcessGroup(processGroupId, "SIGKILL");
  liveProcessGroups.clear();
  if (temporaryDirectory !== null) {
    killProcessesInside(temporaryDirectory);
    rmSync(temporaryDirectory, { recursive: true, force: true });
    temporaryDirectory = null;
  }
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    console.error(`Received ${signal}; stopping the fresh-clone processes and removing the clone.`);
    cleanUpSynchronously();
    process.exit(130);
  });
}
process.on("exit", () => {
  for (const processGroupId of liveProcessGroups) killProcessGroup(processGroupId, "SIGKILL");
});

/**
 * Processes whose working directory lies inside the clone but escaped the process groups (a daemon that called
 * setsid, for instance). Only ever the clone's own processes: the directory is this run's temporary one.
 */
function killProcessesInside(directory: string): number {
  let killed = 0;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const workingDirectory = readlinkSync(`/proc/${entry}/cwd`);
      if (workingDirectory === directory || workingDirectory.startsWith(`${directory}/`)) {
        process.kill(Number(entry), "SIGKILL");
        killed += 1;
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return killed;
}

/** The user's environment, without what the surrounding `pnpm bench` added (npm_* variables, this repository's .bin). */
function environmentOfAFreshShell(extra: Record<string, string>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|PNPM_|TURBO_)/i.test(name) || name === "INIT_CWD" || name === "BENCH_RESULTS_DIR") continue;
    environment[name] = value;
  }
  environment.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((entry) => entry !== "" && !path.resolve(entry).startsWith(`${repositoryRoot}${path.sep}`) && !entry.includes(`${path.sep}node_modules${path.sep}.bin`))
    .join(path.delimiter);
  return { ...environment, ...extra };
}

interface StartedCommand {
  child: ChildProcess;
  exited: Promise<number | null>;
  outputTail: () => string;
}

function startCommand(command: string, commandArguments: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): StartedCommand {
  const child = spawn(command, commandArguments, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  if (child.pid !== undefined) liveProcessGroups.add(child.pid);
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-6_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (error) => {
      output += `\n${error.message}`;
      resolve(null);
    });
    child.once("exit", (code) => resolve(code));
  });
  return { child, exited, outputTail: () => output.trim() };
}

async function stopCommand(started: StartedCommand): Promise<void> {
  const processGroupId = started.child.pid;
  if (processGroupId === undefined) return;
  killProcessGroup(processGroupId, "SIGTERM");
  await Promise.race([started.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  // Grandchildren can outlive the command itself; the whole group goes.
  killProcessGroup(processGroupId, "SIGKILL");
  liveProcessGroups.delete(processGroupId);
}

async function runToCompletion(label: string, command: string, commandArguments: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  const started = performance.now();
  const running = startCommand(command, commandArguments, options);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMilliseconds);
  });
  try {
    const outcome = await Promise.race([running.exited, timedOut]);
    if (outcome === "timeout") throw new Error(`${label} did not finish within ${timeoutMilliseconds / 60_000} minutes:\n${running.outputTail()}`);
    if (outcome !== 0) throw new Error(`${label} exited with code ${outcome}:\n${running.outputTail()}`);
    return (performance.now() - started) / 1000;
  } finally {
    clearTimeout(timer);
    await stopCommand(running);
  }
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("No free port was found."))));
    });
  });
}

async function waitForFirstPage(url: string, running: StartedCommand): Promise<void> {
  const deadline = Date.now() + timeoutMilliseconds;
  let exitCode: number | null | undefined;
  void running.exited.then((code) => {
    exitCode = code;
  });
  for (;;) {
    if (exitCode !== undefined) throw new Error(`pnpm start exited with code ${exitCode} before ${url} answered:\n${running.outputTail()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMilliseconds / 60_000} minutes:\n${running.outputTail()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main(): Promise<void> {
  temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), "atelier-fresh-clone-"));
  const cloneDirectory = path.join(temporaryDirectory, "atelier");
  const port = await findFreePort();
  const environment = environmentOfAFreshShell({ PORT: String(port) });
  const loadAtStart = os.loadavg()[0]?.toFixed(2);
  console.info(`Fresh clone of ${repositoryRoot} into ${cloneDirectory}; the site on port ${port}.`);

  const cloneSeconds = await runToCompletion("git clone", "git", ["clone", "--quiet", repositoryRoot, cloneDirectory], { cwd: temporaryDirectory, env: environment });
  const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: cloneDirectory, encoding: "utf8" }).trim();
  console.info(`  git clone: ${cloneSeconds.toFixed(1)} s (commit ${commit})`);
  const installSeconds = await runToCompletion("pnpm install", "npx", ["--yes", packageManager, "install"], { cwd: cloneDirectory, env: environment });
  console.info(`  pnpm install: ${installSeconds.toFixed(1)} s`);

  const startStarted = performance.now();
  const site = startCommand("npx", ["--yes", packageManager, "start"], { cwd: cloneDirectory, env: environment });
  let buildAndStartSeconds: number;
  try {
    await waitForFirstPage(`http://localhost:${port}/`, site);
    buildAndStartSeconds = (performance.now() - startStarted) / 1000;
  } finally {
    await stopCommand(site);
  }
  console.info(`  pnpm start until / answers 200: ${buildAndStartSeconds.toFixed(1)} s`);

  const storePath = execFileSync("npx", ["--yes", packageManager, "store", "path"], { cwd: cloneDirectory, env: environment, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const strays = killProcessesInside(temporaryDirectory);
  const totalSeconds = cloneSeconds + installSeconds + buildAndStartSeconds;
  const written = writeBenchResult({
    name: "fresh-clone",
    figures: { cloneSeconds, installSeconds, buildAndStartSeconds, totalSeconds },
    notes: [
      `Commit ${commit}, cloned from the local repository (git's hard-linked local clone, so no network time for the clone itself).`,
      `Warm cache: pnpm's store at ${storePath} already held every package, so the install links files and downloads nothing; a first install on a new machine downloads everything and compiles better-sqlite3 (the README says about three minutes).`,
      `The build starts with turbo's cache empty (a fresh clone has no .turbo directory), so the images and the site are built from scratch.`,
      `Load average ${loadAtStart} when the clone started; other work on the machine slows the build.`,
      ...(strays > 0 ? [`${strays} process(es) outside the command's process group were still running in the clone and were killed.`] : []),
    ],
  });
  console.info(`  total: ${totalSeconds.toFixed(1)} s → ${written}`);
}

main()
  .then(
    () => 0,
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      return 1;
    },
  )
  .then((exitCode) => {
    cleanUpSynchronously();
    process.exit(exitCode);
  });
