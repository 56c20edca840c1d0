// Measures GET /_allauth/browser/v1/auth/session (signed in) against a bare node:http JSON server, and login latency.
// Run with `pnpm --filter @atelier/server bench` (BENCH_SECONDS and BENCH_CONNECTIONS change the load).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { serve } from "@hono/node-server";
import { loadConfiguration } from "../src/config.ts";
import { createServer } from "../src/create-server.ts";
import { migrateToLatest } from "../src/database/migrations.ts";
import { openDatabase } from "../src/database/open-database.ts";

const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const loginCount = Number(process.env.BENCH_LOGINS ?? 200);
const password = "correct horse battery";
const execFileAsync = promisify(execFile);
const autocannonCli = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Requests per second from autocannon running in a child process, so the load generator does not share the
 * server's thread (on 2 cores: one for the server, one for the load).
 */
async function measureRequestsPerSecond(url: string, headers: Record<string, string>, seconds = durationSeconds): Promise<number> {
  const headerArguments = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}=${value}`]);
  const { stdout } = await execFileAsync(
    process.execPath,
    [autocannonCli, "--json", "-c", String(connections), "-d", String(seconds), ...headerArguments, url],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as { requests: { average: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url} gave ${result.non2xx} non-2xx answers and ${result.errors} errors under load.`);
  }
  return result.requests.average;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

async function main() {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-bench-"));
  const opened = openDatabase({ databaseUrl: null, dataDirectory });
  await migrateToLatest(opened.database);
  const configuration = loadConfiguration({
    NODE_ENV: "test",
    DATA_DIR: dataDirectory,
    PUBLIC_ORIGIN: "http://127.0.0.1",
    TRUST_PROXY: "true",
    ACCOUNT_EMAIL_VERIFICATION: "none",
    WEB_BUILD_DIR: path.join(dataDirectory, "no-web-build"),
  });
  const app = createServer({ configuration, database: opened.database });
  const atelier = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as http.Server;
  await new Promise((resolve) => atelier.once("listening", resolve));
  const atelierPort = (atelier.address() as AddressInfo).port;
  const body = JSON.stringify({ status: 200, data: { user: { id: "x", display: "bench@example.ch", email: "bench@example.ch", has_usable_password: true }, methods: [] }, meta: { is_authenticated: true } });
  const bare = http.createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(body);
  });
  const barePort = await listen(bare);

  const base = `http://127.0.0.1:${atelierPort}/_allauth/browser/v1`;
  const csrf = "abcdefghijklmnopqrstuvwxyz012345";
  const postHeaders = (ip: string) => ({ "Content-Type": "application/json", Origin: "http://127.0.0.1", Cookie: `csrftoken=${csrf}`, "X-CSRFToken": csrf, "X-Forwarded-For": ip });
  const signup = await fetch(`${base}/auth/signup`, { method: "POST", headers: postHeaders("10.0.0.1"), body: JSON.stringify({ email: "bench@example.ch", password }) });
  if (signup.status !== 200) {
    throw new Error(`Signup answered ${signup.status}.`);
  }

  // Login latency: sequential logins, each from its own simulated address (allauth allows 30 logins/min per address).
  const latencies: number[] = [];
  let sessionCookie = "";
  for (let index = 0; index < loginCount; index += 1) {
    const started = performance.now();
    const response = await fetch(`${base}/auth/login`, { method: "POST", headers: postHeaders(`10.1.${Math.floor(index / 250)}.${index % 250}`), body: JSON.stringify({ email: "bench@example.ch", password }) });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.status !== 200) {
      throw new Error(`Login answered ${response.status}.`);
    }
    sessionCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith("sessionid="))?.split(";")[0] ?? sessionCookie;
  }
  latencies.sort((left, right) => left - right);

  const sessionHeaders = { Cookie: `${sessionCookie}; csrftoken=${csrf}`, "X-Forwarded-For": "10.2.0.1" };
  await measureRequestsPerSecond(`${base}/auth/session`, sessionHeaders, 3); // warm-up
  const atelierRate = await measureRequestsPerSecond(`${base}/auth/session`, sessionHeaders);
  const bareRate = await measureRequestsPerSecond(`http://127.0.0.1:${barePort}/`, {});

  console.info(`Node ${process.version}, ${os.cpus().length} CPUs, autocannon in a child process, ${connections} connections for ${durationSeconds} s each, SQLite in ${dataDirectory}`);
  console.info(`GET /_allauth/browser/v1/auth/session (signed in): ${atelierRate.toFixed(0)} requests/s`);
  console.info(`bare node:http JSON server:                      ${bareRate.toFixed(0)} requests/s`);
  console.info(`ratio: ${(atelierRate / bareRate).toFixed(2)} (target >= 0.5)`);
  console.info(`login (${loginCount} sequential, argon2id): p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`);

  atelier.close();
  bare.close();
  atelier.closeAllConnections?.();
  bare.closeAllConnections();
  await opened.close();
  fs.rmSync(dataDirectory, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
