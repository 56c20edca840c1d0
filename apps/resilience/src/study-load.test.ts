import { afterAll, describe, expect, it } from "vitest";
import { startAtelierServer, type RunningAtelierServer } from "./support/atelier-server.ts";
import { writeBenchResults } from "./support/bench-results.ts";
import { createSharedPostgresDatabase, postgresTestsEnabled } from "./support/postgres.ts";
import { seedPublicGroup } from "./support/seed.ts";
import { resilienceSettings } from "./support/settings.ts";
import { createLoadAgent } from "./support/study-client.ts";
import { formatStudyLoadSummary, runStudyLoad, summarizeStudyLoad, type StudyLoadSummary } from "./support/study-load.ts";

const { loadSeconds, loadLearners } = resilienceSettings;
// Each learner rates faster than the default 600 changes a minute now: the load is about throughput, not the limit.
const loadEnvironment = { STUDY_RATE_LIMIT: "1000000/1m" };
const summaries = new Map<"sqlite" | "postgresql", StudyLoadSummary>();

async function loadOneEngine(server: RunningAtelierServer, engine: "sqlite" | "postgresql"): Promise<StudyLoadSummary> {
  const agent = createLoadAgent(loadLearners + 10);
  try {
    const { groupId, pairCount } = await seedPublicGroup(server, agent);
    expect(pairCount).toBe(200);
    const result = await runStudyLoad({ server, agent, groupId, learners: loadLearners, durationMilliseconds: loadSeconds * 1000, measureCpuOf: { serverPid: server.pid, postgres: engine === "postgresql" } });
    return summarizeStudyLoad(result);
  } finally {
    await agent.close();
  }
}

afterAll(() => {
  if (summaries.size === 0) return;
  const figures: Record<string, number> = {};
  for (const [engine, summary] of summaries) {
    for (const [name, value] of Object.entries(summary)) {
      if (typeof value === "number") figures[`${engine}.${name}`] = value;
    }
  }
  const filePath = writeBenchResults("resilience-load", figures, [
    `${loadLearners} concurrent learners for ${loadSeconds} s per engine against the real server (apps/server src/main.ts, NODE_ENV=test) on loopback; learners and server share the machine's cores.`,
    "Each learner has its own cookies and loops: load a test-mode session of 5 cards (GET /api/subtitle-groups/:id/pairs/), rate each card in turn (POST /api/subtitle-pairs/:id/rate/), load the next session.",
    "Latencies are of successful requests, measured by the client from sending to the end of the body; errors count every non-2xx answer and network error.",
    "steady*: the same percentiles over the requests sent after the first warmUpSeconds, once every learner is under way (the whole run's include the 200 first requests, sent at one instant to a server just started).",
    "SQLite: a new file in a temporary DATA_DIR. PostgreSQL: a new database on the machine's shared server, dropped afterwards.",
    "*CpuMicrosecondsPerRequest (Linux): CPU time over the run divided by its requests, of the server's process, of every PostgreSQL process of the machine (a floor: a process that ended during the run is not counted) and of the learners' process; coresBusy: the three together over the run's seconds. Latency alone cannot tell a slower machine from more work a request.",
  ]);
  console.info(`Results written to ${filePath}`);
});

describe("given 200 learners studying one public group at once", () => {
  it(
    "should answer every request on SQLite, and report p50/p99 and throughput",
    async () => {
      const server = await startAtelierServer({ environment: loadEnvironment });
      try {
        const summary = await loadOneEngine(server, "sqlite");
        console.info(formatStudyLoadSummary("SQLite", summary));
        summaries.set("sqlite", summary);
        expect(summary.errorsByStatus).toEqual({});
        expect(summary.requests).toBeGreaterThan(loadLearners);
      } finally {
        await server.stop();
      }
    },
    (loadSeconds + 90) * 1000,
  );

  it.runIf(postgresTestsEnabled)(
    "should answer every request on PostgreSQL, and report p50/p99 and throughput",
    async () => {
      const database = await createSharedPostgresDatabase();
      const server = await startAtelierServer({ environment: { ...loadEnvironment, DATABASE_URL: database.url } });
      try {
        const summary = await loadOneEngine(server, "postgresql");
        console.info(formatStudyLoadSummary("PostgreSQL", summary));
        summaries.set("postgresql", summary);
        expect(summary.errorsByStatus).toEqual({});
        expect(summary.requests).toBeGreaterThan(loadLearners);
      } finally {
        await server.stop();
        await database.drop();
      }
    },
    (loadSeconds + 90) * 1000,
  );
});
