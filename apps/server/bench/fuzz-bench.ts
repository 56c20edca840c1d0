// Runs the security suite's fuzzing properties with many more runs than CI: FUZZ_RUNS generated requests per endpoint
// (default 1000, about 4 minutes on 2 cores), FUZZ_SEED (default 20261122), FUZZ_ENGINE sqlite or postgresql (default
// sqlite). Prints a summary and writes bench-results/server-fuzz.json (BENCH_RESULTS_DIR moves it). Exits 1 when a
// property fails.
import os from "node:os";
import { writeBenchResult } from "@atelier/bench";
import fc from "fast-check";
import type { DatabaseEngine } from "../src/database/open-database.ts";
import { createEndpointProperty, listFuzzTargets, readFuzzSeed, sweepHostileValues, type FuzzOutcome } from "../src/security-suite/fuzz-properties.ts";
import { buildSecurityWorld } from "../src/security-suite/security-world.ts";

const runsPerEndpoint = Number(process.env.FUZZ_RUNS ?? 1000);
const seed = readFuzzSeed();
const engine: DatabaseEngine = process.env.FUZZ_ENGINE === "postgresql" ? "postgresql" : "sqlite";

type EndpointSummary = { key: string; requests: number; milliseconds: number; failure: string | null };

function countByStatusClass(outcomes: readonly FuzzOutcome[]): Record<string, number> {
  const counts: Record<string, number> = { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 };
  for (const outcome of outcomes) {
    const statusClass = `${Math.floor(outcome.status / 100)}xx`;
    counts[statusClass] = (counts[statusClass] ?? 0) + 1;
  }
  return counts;
}

async function main() {
  if (!Number.isInteger(runsPerEndpoint) || runsPerEndpoint < 1) throw new Error(`FUZZ_RUNS must be a whole number of 1 or more, not ${process.env.FUZZ_RUNS}.`);
  // Refused webhooks and the like log a line each; thousands of them would bury the summary.
  const silencedLogLines = { warn: 0, info: 0, error: 0 };
  const original = { warn: console.warn, info: console.info, error: console.error };
  const print = original.info;
  console.warn = () => void (silencedLogLines.warn += 1);
  console.info = () => void (silencedLogLines.info += 1);
  console.error = () => void (silencedLogLines.error += 1);

  const world = await buildSecurityWorld(engine);
  const started = performance.now();
  const outcomes: FuzzOutcome[] = [];
  const endpoints: EndpointSummary[] = [];
  try {
    const targets = listFuzzTargets(world);
    for (const [index, target] of targets.entries()) {
      const endpointStarted = performance.now();
      const before = outcomes.length;
      const details = await fc.check(
        createEndpointProperty(world, target, (outcome) => outcomes.push(outcome)),
        { seed: seed + index, numRuns: runsPerEndpoint },
      );
      const failure = details.failed ? `${target.route.key}: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)} (replay: seed ${details.seed}, path "${details.counterexamplePath}")` : null;
      endpoints.push({ key: target.route.key, requests: outcomes.length - before, milliseconds: performance.now() - endpointStarted, failure });
      print(`${failure ? "FAIL" : "ok  "} ${target.route.key} (${outcomes.length - before} requests, ${((performance.now() - endpointStarted) / 1000).toFixed(1)} s)`);
    }
    const hostileStarted = performance.now();
    const hostileFailures: string[] = [];
    let hostileRequests = 0;
    for (const target of targets) {
      try {
        hostileRequests += (await sweepHostileValues(world, target)).length;
      } catch (error) {
        hostileFailures.push(`${target.route.key}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const hostileSeconds = (performance.now() - hostileStarted) / 1000;
    const seconds = (performance.now() - started) / 1000;

    const failures = [...endpoints.flatMap((endpoint) => (endpoint.failure ? [endpoint.failure] : [])), ...hostileFailures];
    const statusClasses = countByStatusClass(outcomes);
    const slowest = [...endpoints].sort((first, second) => second.milliseconds / second.requests - first.milliseconds / first.requests).slice(0, 5);
    const figures = {
      endpoints: targets.length,
      runsPerEndpoint,
      seed,
      generatedRequests: outcomes.length,
      hostileValueRequests: hostileRequests,
      failedProperties: failures.length,
      refusedRequests: outcomes.filter((outcome) => outcome.refused).length,
      statusClasses,
      requestsPerSecond: Math.round(outcomes.length / (seconds - hostileSeconds)),
      durationSeconds: Math.round(seconds * 10) / 10,
      slowestEndpointsMillisecondsPerRequest: Object.fromEntries(slowest.map((endpoint) => [endpoint.key, Math.round((endpoint.milliseconds / endpoint.requests) * 100) / 100])),
      serverLogLines: silencedLogLines,
    };
    const notes = [
      `${engine === "sqlite" ? "SQLite" : "PostgreSQL"}, Node ${process.version}, ${os.cpus().length} CPUs; every request goes through app.request() and the database is put back after each one.`,
      `Properties per endpoint: no 5xx, answers that are valid JSON when they say so, no stored change (but rate-limit counts and session activity) from a refused request. Replay with FUZZ_SEED=${seed} FUZZ_RUNS=${runsPerEndpoint}.`,
      ...failures.map((failure) => `Failed: ${failure}`),
    ];
    const written = writeBenchResult({ name: "server-fuzz", figures, notes });

    print("");
    print(`${targets.length} endpoints × ${runsPerEndpoint} runs (seed ${seed}) on ${engine}: ${outcomes.length} generated requests and ${hostileRequests} hostile-value requests in ${seconds.toFixed(1)} s`);
    print(`answers: ${Object.entries(statusClasses).map(([statusClass, count]) => `${statusClass} ${count}`).join(", ")}; ${figures.requestsPerSecond} requests/s`);
    print(failures.length === 0 ? "no property failed" : `${failures.length} properties failed:\n${failures.join("\n")}`);
    print(`Written: ${written}`);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    Object.assign(console, original);
    await world.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
