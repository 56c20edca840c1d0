// Measures the study API on a 20,000-pair group on SQLite and PostgreSQL: GET pairs and GET stats latency, and rating
// requests per second (sequential, ten clients, and autocannon against a bare node:http server in the same run);
// writes bench-results/study.json. Run with `pnpm --filter @atelier/server bench`; BENCH_REQUESTS changes the number of
// timed requests, BENCH_POSTGRES_URL the database (skipped when unreachable), BENCH_SECONDS the autocannon duration.
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { rateCard, type CardProgress } from "@atelier/leitner";
import { sql } from "kysely";
import pg from "pg";
import { writeBenchResult, type BenchFigures } from "@atelier/bench";
import { loadConfiguration } from "../src/config.ts";
import { createServer } from "../src/create-server.ts";
import { serveAtelier } from "../src/http/serve-atelier.ts";
import { createServerLifecycle } from "../src/operations/index.ts";
import { migrateToLatest } from "../src/database/migrations.ts";
import { openDatabase, type OpenedDatabase } from "../src/database/open-database.ts";
import { insertGroupWithPairs, writeProgress } from "../src/study/study-store.ts";
import { measureAgainstBareServer, ratioRounds, requestsDrained, secondsPerRatioRun, throughputConnections } from "./measure-throughput.ts";

const pairCount = 20_000;
const requestCount = Number(process.env.BENCH_REQUESTS ?? 50);
/** Rounds of the interleaved calls: a p95 of 50 is the third-slowest answer, one hiccup of the machine; of 250, the 13th. */
const interleavedRounds = Number(process.env.BENCH_INTERLEAVED_ROUNDS ?? 250);
const ratingSeconds = Number(process.env.BENCH_RATING_SECONDS ?? 5);
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

async function timeRequests(url: string, headers: Record<string, string>, count: number): Promise<{ p50Milliseconds: number; p95Milliseconds: number }> {
  const latencies: number[] = [];
  for (let index = 0; index < count + 3; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}.`);
    if (index >= 3) latencies.push(performance.now() - started);
  }
  latencies.sort((left, right) => left - right);
  return { p50Milliseconds: percentile(latencies, 0.5), p95Milliseconds: percentile(latencies, 0.95) };
}

/**
 * `timeRequests` while `busyClients` other clients ask for `busyUrl` in a loop, one request after another each: what
 * a learner's small session costs while others read whole films (decision 0077).
 */
async function timeRequestsBeside(
  url: string,
  headers: Record<string, string>,
  count: number,
  busy: { url: string; headers: Record<string, string>; clients: number },
): Promise<{ p50Milliseconds: number; p95Milliseconds: number; busyAnswers: number }> {
  let busyLoopsRun = true;
  let busyAnswers = 0;
  const busyLoops = Array.from({ length: busy.clients }, async () => {
    while (busyLoopsRun) {
      const response = await fetch(busy.url, { headers: busy.headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${busy.url} answered ${response.status}.`);
      busyAnswers += 1;
    }
  });
  try {
    return { ...(await timeRequests(url, headers, count)), busyAnswers };
  } finally {
    busyLoopsRun = false;
    await Promise.all(busyLoops);
  }
}

const dayMilliseconds = 24 * 60 * 60 * 1000;

/**
 * The records of a learner who began each card on one of the last 60 days and rated it on its due days (or up to two
 * days late), right four times in five, as the engine rates; one card in ten left overdue. Deterministic: the same
 * cards and dates each run, relative to `now`.
 */
function studiedForWeeks(pairIds: readonly string[], now: Date): CardProgress[] {
  let seed = 16;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return pairIds.map((pairId, index) => {
    let day = -1 - (index % 60);
    let progress: CardProgress | undefined;
    while (day <= 0) {
      const ratedAt = new Date(Math.min(startOfToday + day * dayMilliseconds + 10 * 60 * 60 * 1000, now.getTime()));
      progress = rateCard(progress, pairId, random() < 0.8, ratedAt);
      if (random() < 0.1) break;
      day = Math.max(day + 1, Math.round((Date.parse(progress.dueAt ?? "") - startOfToday) / dayMilliseconds)) + Math.floor(random() * 3);
    }
    return progress as CardProgress;
  });
}

type InterleavedCall = { name: string; send: (round: number) => Promise<Response> };

/**
 * Issue 16's ratio: each round sends GET /site-config (the baseline, no database) and then each study call once, so
 * the machine's noise falls on all of them alike; answers each call's p95 divided by the baseline's p95.
 */
async function timeInterleaved(calls: readonly InterleavedCall[], rounds: number): Promise<Record<string, { p95Milliseconds: number; ratioToSiteConfigP95: number }>> {
  const latencies = new Map(calls.map((call) => [call.name, [] as number[]]));
  for (let round = 0; round < rounds + 3; round += 1) {
    for (const call of calls) {
      const started = performance.now();
      const response = await call.send(round);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${call.name} answered ${response.status}.`);
      if (round >= 3) latencies.get(call.name)?.push(performance.now() - started);
    }
  }
  const p95 = (name: string) => percentile((latencies.get(name) ?? []).sort((left, right) => left - right), 0.95);
  const baseline = p95(calls[0]?.name ?? "");
  return Object.fromEntries(calls.map((call) => [call.name, { p95Milliseconds: p95(call.name), ratioToSiteConfigP95: p95(call.name) / baseline }]));
}

async function benchEngine(label: string, opened: OpenedDatabase, options: { postgresSchema?: string } = {}): Promise<BenchFigures> {
  await migrateToLatest(opened.database, options);
  const configuration = loadConfiguration({
    NODE_ENV: "test",
    DATA_DIR: os.tmpdir(),
    PUBLIC_ORIGIN: "http://127.0.0.1",
    TRUST_PROXY: "true",
    ACCOUNT_EMAIL_VERIFICATION: "none",
    WEB_BUILD_DIR: path.join(os.tmpdir(), "atelier-no-web-build"),
    // The bench rates thousands of cards a minute as one learner; the production limit (600/1m) would stop it.
    STUDY_RATE_LIMIT: "100000000/1m",
    // Its "every card" sessions of 20,000 cards are timed 50 times in a row.
    STUDY_LARGE_SESSION_RATE_LIMIT: "100000000/1m",
  });
  const lifecycle = createServerLifecycle();
  const app = createServer({ configuration, database: opened.database, lifecycle });
  const server = serveAtelier(app, { port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const csrf = "abcdefghijklmnopqrstuvwxyz012345";
  const postHeaders = { "Content-Type": "application/json", Origin: "http://127.0.0.1", Cookie: `csrftoken=${csrf}`, "X-CSRFToken": csrf, "X-Forwarded-For": "10.9.0.1" };
  const signup = await fetch(`${base}/_allauth/browser/v1/auth/signup`, { method: "POST", headers: postHeaders, body: JSON.stringify({ email: "bench@example.ch", password: "correct horse battery" }) });
  if (signup.status !== 200) throw new Error(`Signup answered ${signup.status}.`);
  const userId = ((await signup.json()) as { data: { user: { id: string } } }).data.user.id;
  const sessionCookie = signup.headers.getSetCookie().find((cookie) => cookie.startsWith("sessionid="))?.split(";")[0] ?? "";

  const seeded = performance.now();
  const groupId = crypto.randomUUID();
  await insertGroupWithPairs(
    opened.database,
    { id: groupId, ownerId: userId, name: "Bench", isPublic: true, report: {} as never, createdAt: new Date().toISOString() },
    Array.from({ length: pairCount }, (_, index) => ({ english: `English sentence number ${index}, of moderate length.`, swedish: `Svensk mening nummer ${index}, av lagom längd.`, confidence: 1 })),
  );
  const seedMilliseconds = performance.now() - seeded;
  const headers = { Cookie: `${sessionCookie}; csrftoken=${csrf}`, "X-Forwarded-For": "10.9.0.2" };

  // Give the learner progress on a quarter of the cards, as after some weeks of study: boxes and due dates spread over
  // the days they studied on, not one box and one due date for all.
  const pairs = ((await (await fetch(`${base}/api/subtitle-groups/${groupId}/pairs/`, { headers })).json()) as { pairs: { id: string }[] }).pairs;
  const startedPairIds = pairs.slice(0, pairCount / 4).map((pair) => pair.id);
  await writeProgress(opened.database, `user:${userId}`, studiedForWeeks(startedPairIds, new Date()).map((record) => ({ ...record, groupId })), new Date().toISOString());
  // The steady state a learner studies in, not the minute after an upload: PostgreSQL's autovacuum would analyze the
  // 25,000 new rows in the middle of the timed requests, changing plans and taking a core while it runs.
  if (options.postgresSchema !== undefined) await sql`vacuum analyze subtitle_pair, study_progress, subtitle_group, study_learner_memorized`.execute(opened.database);

  const queries = {
    "GET pairs (study, all, every card)": await timeRequests(`${base}/api/subtitle-groups/${groupId}/pairs/`, headers, requestCount),
    "GET pairs (test, all, cardCount=20)": await timeRequests(`${base}/api/subtitle-groups/${groupId}/pairs/?mode=test&range=all&cardCount=20`, headers, requestCount),
    "GET stats": await timeRequests(`${base}/api/subtitle-groups/${groupId}/stats/`, headers, requestCount),
    // Another learner's, from other addresses: each reads the whole film.
    "GET pairs (test, all, cardCount=20) while 2 clients read every card in a loop": await timeRequestsBeside(`${base}/api/subtitle-groups/${groupId}/pairs/?mode=test&range=all&cardCount=20`, headers, requestCount * 4, {
      url: `${base}/api/subtitle-groups/${groupId}/pairs/`,
      headers: { "X-Forwarded-For": "10.9.0.3" },
      clients: 2,
    }),
  };

  const interleaved = await timeInterleaved(
    [
      { name: "GET /site-config", send: () => fetch(`${base}/site-config`, { headers }) },
      { name: "GET stats", send: () => fetch(`${base}/api/subtitle-groups/${groupId}/stats/`, { headers }) },
      { name: "GET pairs (test, all, cardCount=20)", send: () => fetch(`${base}/api/subtitle-groups/${groupId}/pairs/?mode=test&range=all&cardCount=20`, { headers }) },
      {
        name: "POST rate",
        send: (round) => fetch(`${base}/api/subtitle-pairs/${(pairs[round % pairs.length] as { id: string }).id}/rate/`, { method: "POST", headers: { ...postHeaders, ...headers }, body: JSON.stringify({ is_correct: true }) }),
      },
    ],
    interleavedRounds,
  );

  let ratings = 0;
  const deadline = performance.now() + ratingSeconds * 1000;
  const started = performance.now();
  while (performance.now() < deadline) {
    const pair = pairs[ratings % pairs.length] as { id: string };
    const response = await fetch(`${base}/api/subtitle-pairs/${pair.id}/rate/`, { method: "POST", headers: { ...postHeaders, ...headers }, body: JSON.stringify({ is_correct: ratings % 3 !== 0 }) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`rate answered ${response.status}.`);
    ratings += 1;
  }
  const sequentialRate = ratings / ((performance.now() - started) / 1000);

  // Ten learners rating at once (ten connections): what the server sustains, not one client's round trips.
  const concurrentStarted = performance.now();
  const concurrentDeadline = concurrentStarted + ratingSeconds * 1000;
  let concurrentRatings = 0;
  await Promise.all(
    Array.from({ length: 10 }, async (_, worker) => {
      let index = worker * 1000;
      while (performance.now() < concurrentDeadline) {
        const pair = pairs[index % pairs.length] as { id: string };
        const response = await fetch(`${base}/api/subtitle-pairs/${pair.id}/rate/`, { method: "POST", headers: { ...postHeaders, ...headers }, body: JSON.stringify({ is_correct: true }) });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`rate answered ${response.status}.`);
        index += 1;
        concurrentRatings += 1;
      }
    }),
  );
  const concurrentRate = concurrentRatings / ((performance.now() - concurrentStarted) / 1000);

  // Fifty connections from autocannon, each request rating the next card, against a bare node:http server measured
  // just before in this process.
  const ratingPaths = pairs.map((pair) => `/api/subtitle-pairs/${pair.id}/rate/`);
  const ratingBody = JSON.stringify({ is_correct: true });
  const ratingAnswer = await (await fetch(`${base}${ratingPaths[0]}`, { method: "POST", headers: { ...postHeaders, ...headers }, body: ratingBody })).text();
  const autocannonRating = await measureAgainstBareServer({ url: `${base}${ratingPaths[0]}`, paths: ratingPaths, method: "POST", headers: { ...postHeaders, ...headers }, body: ratingBody }, ratingAnswer);

  const rating = { ...autocannonRating, sequentialRequestsPerSecond: sequentialRate, tenClientsRequestsPerSecond: concurrentRate };
  console.info(`\n${label}`);
  console.info(`  seeding ${pairCount} pairs: ${seedMilliseconds.toFixed(0)} ms`);
  for (const [query, latency] of Object.entries(queries)) console.info(`  ${query}: p50 ${latency.p50Milliseconds.toFixed(1)} ms, p95 ${latency.p95Milliseconds.toFixed(1)} ms`);
  for (const [call, figures] of Object.entries(interleaved)) console.info(`  interleaved ${call}: p95 ${figures.p95Milliseconds.toFixed(1)} ms, ×${figures.ratioToSiteConfigP95.toFixed(1)} of GET /site-config's p95`);
  console.info(`  POST rate: ${sequentialRate.toFixed(0)} requests/s sequential, ${concurrentRate.toFixed(0)} requests/s with 10 concurrent clients`);
  console.info(`  POST rate (autocannon, ${throughputConnections} connections): ${autocannonRating.requestsPerSecond.toFixed(0)} requests/s, bare node:http ${autocannonRating.bareRequestsPerSecond.toFixed(0)}, ratio ${autocannonRating.ratioToBare.toFixed(2)} (median of ${ratioRounds} rounds, ${autocannonRating.lowestRoundRatio.toFixed(2)}–${autocannonRating.highestRoundRatio.toFixed(2)}); server CPU per answer ${autocannonRating.cpuMicrosecondsPerRequest.toFixed(1)} µs, bare ${autocannonRating.bareCpuMicrosecondsPerRequest.toFixed(1)} µs`);
  await requestsDrained(lifecycle);
  server.close();
  server.closeAllConnections?.();
  return { seedMilliseconds, queries, interleaved, rating };
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function main() {
  console.info(`Node ${process.version}, ${os.cpus().length} CPUs; ${requestCount} timed requests each, sequential, one signed-in learner with 5,000 started cards`);
  const loadAtStart = os.loadavg()[0]?.toFixed(2);
  const engines: Record<string, BenchFigures> = {};
  const notes = [
    `One signed-in learner with 5,000 of the ${pairCount.toLocaleString("en-US")} cards started over 60 days (boxes and due dates as the engine's ratings leave them); latencies over ${requestCount} sequential requests (the interleaved ratios over ${interleavedRounds} rounds); the autocannon rating rates the cards in turn with ${throughputConnections} connections, in ${ratioRounds} rounds of ${secondsPerRatioRun} s of the bare server then ${secondsPerRatioRun} s of the endpoint, the ratio the median of the rounds' ratios; load average ${loadAtStart} at the start.`,
  ];
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-study-bench-"));
  const sqlite = openDatabase({ databaseUrl: null, dataDirectory });
  try {
    engines.sqlite = await benchEngine("SQLite", sqlite);
  } finally {
    await sqlite.close();
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  }

  if (await postgresReachable()) {
    const schema = `atelier_bench_${crypto.randomUUID().replaceAll("-", "")}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const postgres = openDatabase({ databaseUrl: postgresUrl, dataDirectory: "", postgresSearchPath: schema });
    try {
      engines.postgresql = await benchEngine("PostgreSQL", postgres, { postgresSchema: schema });
      notes.push(`PostgreSQL at ${new URL(postgresUrl).host}, a schema of its own dropped afterwards.`);
    } finally {
      await postgres.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  } else {
    console.info(`\nPostgreSQL: skipped, nothing answers at ${postgresUrl} (set BENCH_POSTGRES_URL).`);
    notes.push(`PostgreSQL skipped: nothing answered at ${new URL(postgresUrl).host}.`);
  }
  console.info(`Written: ${writeBenchResult({ name: "study", figures: { pairCount, connections: throughputConnections, secondsPerRun: secondsPerRatioRun, engines }, notes })}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
