// Measures GET /_allauth/browser/v1/auth/session (signed in) against a bare node:http JSON server, login latency, and,
// when ALLAUTH_COMPARISON_URL names a django-allauth server on this machine, the same calls against it
// (allauth-comparison.ts); writes bench-results/identity.json. Run with `pnpm --filter @atelier/server bench`
// (BENCH_SECONDS and BENCH_CONNECTIONS change the load).
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { writeBenchResult } from "@atelier/bench";
import { loadConfiguration } from "../src/config.ts";
import { createServer } from "../src/create-server.ts";
import { serveAtelier } from "../src/http/serve-atelier.ts";
import { createServerLifecycle } from "../src/operations/index.ts";
import { migrateToLatest } from "../src/database/migrations.ts";
import { openDatabase } from "../src/database/open-database.ts";
import { signedInHintCookieName } from "../src/identity/identity-request.ts";
import { compareWithAllauth } from "./allauth-comparison.ts";
import { measureAgainstBareServer, ratioRounds, requestsDrained, secondsPerRatioRun, throughputConnections } from "./measure-throughput.ts";

const loginCount = Number(process.env.BENCH_LOGINS ?? 200);
const password = "correct horse battery";

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
  const lifecycle = createServerLifecycle();
  const app = createServer({ configuration, database: opened.database, lifecycle });
  const atelier = serveAtelier(app, { port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => atelier.once("listening", resolve));
  const atelierPort = (atelier.address() as AddressInfo).port;
  const loadAtStart = os.loadavg()[0]?.toFixed(2);

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

  // The cookies a signed-in browser sends: the session, the CSRF token and the signed-in hint (without the hint every
  // answer would set it again, which no browser asks for twice).
  const sessionHeaders = { Cookie: `${sessionCookie}; csrftoken=${csrf}; ${signedInHintCookieName}=1`, "X-Forwarded-For": "10.2.0.1" };
  const sessionAnswer = await (await fetch(`${base}/auth/session`, { headers: sessionHeaders })).text();
  const session = await measureAgainstBareServer({ url: `${base}/auth/session`, headers: sessionHeaders }, sessionAnswer);
  const allauthComparison = await compareWithAllauth({
    atelierBase: base,
    atelierExtraCookie: `${signedInHintCookieName}=1`,
    allauthUrl: process.env.ALLAUTH_COMPARISON_URL,
    rounds: ratioRounds,
    secondsPerRun: secondsPerRatioRun,
    logins: Number(process.env.BENCH_COMPARED_LOGINS ?? 60),
  });
  const login = { count: loginCount, p50Milliseconds: percentile(latencies, 0.5), p99Milliseconds: percentile(latencies, 0.99) };

  console.info(`Node ${process.version}, ${os.cpus().length} CPUs, autocannon in a child process, ${throughputConnections} connections, ${ratioRounds} rounds of ${secondsPerRatioRun} s bare then ${secondsPerRatioRun} s endpoint, SQLite in ${dataDirectory}`);
  console.info(`GET /_allauth/browser/v1/auth/session (signed in): ${session.requestsPerSecond.toFixed(0)} requests/s`);
  console.info(`bare node:http JSON server (same answer):          ${session.bareRequestsPerSecond.toFixed(0)} requests/s`);
  console.info(`ratio: ${session.ratioToBare.toFixed(2)}, the median of ${ratioRounds} rounds (${session.lowestRoundRatio.toFixed(2)}–${session.highestRoundRatio.toFixed(2)}) (target >= 0.5)`);
  console.info(`server CPU per answer: ${session.cpuMicrosecondsPerRequest.toFixed(1)} µs, bare ${session.bareCpuMicrosecondsPerRequest.toFixed(1)} µs`);
  console.info(`login (${loginCount} sequential, argon2id): p50 ${login.p50Milliseconds.toFixed(1)} ms, p99 ${login.p99Milliseconds.toFixed(1)} ms`);
  if (allauthComparison.measured) {
    for (const [call, compared] of Object.entries(allauthComparison.calls)) {
      console.info(`${call}: ${compared.atelierRequestsPerSecond.toFixed(0)} requests/s, allauth (${allauthComparison.allauthServer}) ${compared.allauthRequestsPerSecond.toFixed(1)}: ×${compared.ratio.toFixed(1)} (rounds ×${compared.lowestRoundRatio.toFixed(1)}–${compared.highestRoundRatio.toFixed(1)})`);
    }
  } else {
    console.info(`requests/s ÷ django-allauth: ${allauthComparison.reason}`);
  }
  const written = writeBenchResult({
    name: "identity",
    figures: { connections: throughputConnections, secondsPerRun: secondsPerRatioRun, session, login, allauthComparison },
    notes: [
      `GET session signed in, on SQLite, against a bare node:http server answering the same ${sessionAnswer.length}-byte JSON; ${throughputConnections} connections; ${ratioRounds} rounds of ${secondsPerRatioRun} s of the bare server then ${secondsPerRatioRun} s of the endpoint, the ratio the median of the rounds' ratios; load average ${loadAtStart} at the start.`,
    ],
  });
  console.info(`Written: ${written}`);

  await requestsDrained(lifecycle);
  atelier.close();
  atelier.closeAllConnections?.();
  await opened.close();
  fs.rmSync(dataDirectory, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
