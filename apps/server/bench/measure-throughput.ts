// Requests per second with autocannon, and the bare node:http server every endpoint is compared with in the same run.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import type { ServerLifecycle } from "../src/operations/index.ts";

const runnerPath = path.join(import.meta.dirname, import.meta.url.endsWith(".ts") ? "autocannon-runner.ts" : "autocannon-runner.js");

export const throughputSeconds = Number(process.env.BENCH_SECONDS ?? 10);
export const throughputConnections = Number(process.env.BENCH_CONNECTIONS ?? 50);

export type Throughput = { requestsPerSecond: number; cpuMicrosecondsPerRequest: number };

export interface ThroughputRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Paths to cycle through, one per request (many cards rather than one), instead of the URL's own path. */
  paths?: string[];
  seconds?: number;
}

/**
 * Requests per second from autocannon running in a child process, so the load generator does not share the
 * server's thread (on 2 cores: one for the server, one for the load), and the CPU time this process (the server) spent
 * per answer meanwhile: a figure the machine's speed moves, but not whether the load generator kept up. Any non-2xx
 * answer or error fails the bench.
 */
export async function measureRequestsPerSecond(request: ThroughputRequest): Promise<Throughput> {
  // The parent's execArgv carries tsx's loader, so the runner can be TypeScript too.
  const child = spawn(process.execPath, [...process.execArgv, runnerPath], { stdio: ["pipe", "pipe", "inherit"] });
  const cpuBefore = process.cpuUsage();
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const output = text(child.stdout);
  child.stdin.end(
    JSON.stringify({
      url: request.url,
      method: request.method ?? "GET",
      headers: request.headers ?? {},
      body: request.body,
      paths: request.paths,
      seconds: request.seconds ?? throughputSeconds,
      connections: throughputConnections,
    }),
  );
  const [exitCode, stdout] = await Promise.all([exited, output]);
  const cpu = process.cpuUsage(cpuBefore);
  if (exitCode !== 0) throw new Error(`autocannon exited with code ${exitCode} for ${request.method ?? "GET"} ${request.url}.`);
  const result = JSON.parse(stdout) as { requestsPerSecond: number; requests: number; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${request.method ?? "GET"} ${request.url} gave ${result.non2xx} non-2xx answers and ${result.errors} errors under load.`);
  }
  return { requestsPerSecond: result.requestsPerSecond, cpuMicrosecondsPerRequest: (cpu.user + cpu.system) / result.requests };
}

/** A node:http server answering every request with the given JSON body: the ceiling an endpoint is compared with. */
export async function startBareJsonServer(body: string): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((request, response) => {
    // Read the request body as a framework would, so that a POST costs the bare server what it costs the endpoint.
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

/** Rounds of the bare server then the endpoint, each run half of `throughputSeconds` long (`BENCH_RATIO_ROUNDS`). */
export const ratioRounds = Number(process.env.BENCH_RATIO_ROUNDS ?? 3);
export const secondsPerRatioRun = Math.max(1, Math.round(throughputSeconds / 2));

export type RatioToBare = {
  /** The medians over the rounds: the endpoint's and the bare server's requests per second, and their ratio. */
  requestsPerSecond: number;
  bareRequestsPerSecond: number;
  ratioToBare: number;
  /** The lowest and the highest of the rounds' ratios. */
  lowestRoundRatio: number;
  highestRoundRatio: number;
  cpuMicrosecondsPerRequest: number;
  bareCpuMicrosecondsPerRequest: number;
  rounds: number;
  loadAverage: number;
};

/** The middle value, or the mean of the two middle ones. */
export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The endpoint's requests per second as a ratio to a bare server measured in the same process, so that whatever else
 * the machine is doing weighs on both: in rounds, the bare server then the endpoint, each round's ratio from its own
 * pair of runs, and the median of the rounds' ratios (a machine that slows down for a few seconds spoils one round, not
 * the figure); with the machine's load average (one minute) just before.
 */
export async function measureAgainstBareServer(endpoint: ThroughputRequest, bareBody: string): Promise<RatioToBare> {
  await measureRequestsPerSecond({ ...endpoint, seconds: 3 }); // warm-up
  const bare = await startBareJsonServer(bareBody);
  try {
    const loadAverage = Number((os.loadavg()[0] ?? 0).toFixed(2));
    const rounds: Array<{ bare: Throughput; endpoint: Throughput }> = [];
    for (let round = 0; round < ratioRounds; round += 1) {
      // Same method, body and paths (the bare server ignores them), so the load generator does the same work for both.
      const bareRun = await measureRequestsPerSecond({
        url: bare.url,
        method: endpoint.method,
        body: endpoint.body,
        paths: endpoint.paths,
        headers: endpoint.body === undefined ? {} : { "Content-Type": "application/json" },
        seconds: secondsPerRatioRun,
      });
      rounds.push({ bare: bareRun, endpoint: await measureRequestsPerSecond({ ...endpoint, seconds: secondsPerRatioRun }) });
    }
    const ratios = rounds.map((round) => round.endpoint.requestsPerSecond / round.bare.requestsPerSecond);
    return {
      requestsPerSecond: medianOf(rounds.map((round) => round.endpoint.requestsPerSecond)),
      bareRequestsPerSecond: medianOf(rounds.map((round) => round.bare.requestsPerSecond)),
      ratioToBare: medianOf(ratios),
      lowestRoundRatio: Math.min(...ratios),
      highestRoundRatio: Math.max(...ratios),
      cpuMicrosecondsPerRequest: medianOf(rounds.map((round) => round.endpoint.cpuMicrosecondsPerRequest)),
      bareCpuMicrosecondsPerRequest: medianOf(rounds.map((round) => round.bare.cpuMicrosecondsPerRequest)),
      rounds: ratioRounds,
      loadAverage,
    };
  } finally {
    bare.close();
  }
}

/**
 * Waits until the server answers no request. autocannon stops with up to one request in flight per connection, so a
 * bench waits for this before it closes the database under them.
 */
export async function requestsDrained(lifecycle: ServerLifecycle): Promise<void> {
  while (lifecycle.requestsInProgress > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}
