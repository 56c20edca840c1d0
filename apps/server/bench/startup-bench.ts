// Start time and memory of the compiled server (`node dist/main.js`, what `pnpm start` runs), beside the same server
// run from source through tsx; writes bench-results/server-startup.json. Needs `pnpm --filter @atelier/server build`.
import { readFileSync, rmSync } from "node:fs";
import { writeBenchResult } from "@atelier/bench";
import { findFreePort, spawnAtelierServer } from "../src/testing/spawn-atelier-server.ts";

const startsPerMode = Number(process.env.BENCH_SERVER_STARTS ?? 5);
const requestsAfterStart = 1_000;

function residentMegabytesOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((candidate) => candidate.startsWith("VmRSS:")) ?? "VmRSS: 0 kB";
  return Number(line.replace(/\D+/g, "")) / 1024;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function measureOneStart(mode: "compiled" | "source") {
  const port = await findFreePort();
  const previous = process.env.ATELIER_SERVER_FROM_SOURCE;
  process.env.ATELIER_SERVER_FROM_SOURCE = mode === "source" ? "1" : "0";
  const startedAt = performance.now();
  const dataDirectory = `/tmp/atelier-startup-bench-${process.pid}-${port}`;
  const { child, exited } = spawnAtelierServer({ PORT: String(port), PUBLIC_ORIGIN: `http://localhost:${port}`, DATA_DIR: dataDirectory });
  process.env.ATELIER_SERVER_FROM_SOURCE = previous;
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The ${mode} server exited with code ${child.exitCode} before answering.`);
    try {
      if ((await fetch(`${url}/site-config`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const readyMilliseconds = performance.now() - startedAt;
  const residentAtReadyMegabytes = residentMegabytesOf(child.pid ?? 0);
  for (let index = 0; index < requestsAfterStart; index += 1) {
    const path = index % 2 === 0 ? "/site-config" : "/_allauth/browser/v1/config";
    await (await fetch(`${url}${path}`)).arrayBuffer();
  }
  const residentAfterRequestsMegabytes = residentMegabytesOf(child.pid ?? 0);
  child.kill("SIGTERM");
  await exited;
  rmSync(dataDirectory, { recursive: true, force: true });
  return { readyMilliseconds, residentAtReadyMegabytes, residentAfterRequestsMegabytes };
}

async function measureMode(mode: "compiled" | "source") {
  const runs = [];
  for (let index = 0; index < startsPerMode; index += 1) runs.push(await measureOneStart(mode));
  return {
    starts: runs.length,
    readyMillisecondsMedian: Number(median(runs.map((run) => run.readyMilliseconds)).toFixed(0)),
    residentAtReadyMegabytesMedian: Number(median(runs.map((run) => run.residentAtReadyMegabytes)).toFixed(1)),
    residentAfterRequestsMegabytesMedian: Number(median(runs.map((run) => run.residentAfterRequestsMegabytes)).toFixed(1)),
  };
}

const compiled = await measureMode("compiled");
const source = await measureMode("source");
console.info(`compiled (node dist/main.js): ready in ${compiled.readyMillisecondsMedian} ms, RSS ${compiled.residentAtReadyMegabytesMedian} MB at ready, ${compiled.residentAfterRequestsMegabytesMedian} MB after ${requestsAfterStart} requests`);
console.info(`source (tsx src/main.ts):     ready in ${source.readyMillisecondsMedian} ms, RSS ${source.residentAtReadyMegabytesMedian} MB at ready, ${source.residentAfterRequestsMegabytesMedian} MB after ${requestsAfterStart} requests`);
const written = writeBenchResult({
  name: "server-startup",
  figures: { compiled, source, requestsAfterStart },
  notes: [
    `Median of ${startsPerMode} starts each, SQLite in a fresh data directory (migrations included), from spawn to the first 200 of GET /site-config polled every 5 ms; RSS from /proc/<pid>/status.`,
  ],
});
console.info(`Written: ${written}`);
