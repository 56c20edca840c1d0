import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAtelierServer, type RunningAtelierServer } from "./support/atelier-server.ts";
import { recordFaultFigures } from "./support/fault-figures.ts";
import { postgresTestsEnabled, startPrivatePostgres, type PrivatePostgres } from "./support/postgres.ts";
import { seedPublicGroup } from "./support/seed.ts";
import { resilienceSettings } from "./support/settings.ts";
import { createLoadAgent, StudyClient } from "./support/study-client.ts";
import { runStudyLoad, type StudyLoadProgress } from "./support/study-load.ts";

const { restartLearners, outageSeconds } = resilienceSettings;
const loadBeforeStopSeconds = 3;
const loadAfterStartSeconds = 6;

function seconds(milliseconds: number): number {
  return Math.round(milliseconds / 10) / 100;
}

describe.runIf(postgresTestsEnabled)("given PostgreSQL restarted while learners study", () => {
  let postgres: PrivatePostgres;
  let server: RunningAtelierServer;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    server = await startAtelierServer({ environment: { DATABASE_URL: postgres.url } });
  });

  afterAll(async () => {
    await server?.stop();
    postgres?.destroy();
  });

  it(
    "should answer 503 with Retry-After while it is away and recover by itself, without a restart of the server",
    async () => {
      const agent = createLoadAgent(restartLearners + 10);
      try {
        const { groupId } = await seedPublicGroup(server, agent);
        const progress: StudyLoadProgress = { started: false, acknowledgedRatings: 0 };
        const load = runStudyLoad({
          server,
          agent,
          groupId,
          learners: restartLearners,
          durationMilliseconds: (loadBeforeStopSeconds + outageSeconds + loadAfterStartSeconds) * 1000,
          progress,
        });
        while (!progress.started) await new Promise((resolve) => setTimeout(resolve, 50));
        await new Promise((resolve) => setTimeout(resolve, loadBeforeStopSeconds * 1000));
        const stoppingAt = performance.now();
        await postgres.stop("immediate");
        const stoppedAt = performance.now();

        // While PostgreSQL is away: a 503 in each API's shape, with Retry-After, from the same server process.
        const probe = new StudyClient(server, agent);
        const studyAnswer = await probe.send("GET", `/api/subtitle-groups/${groupId}/pairs/`);
        expect(studyAnswer.status).toBe(503);
        expect(studyAnswer.headers["retry-after"]).toBe("5");
        expect(studyAnswer.body).toEqual({ message: expect.stringContaining("database is unavailable"), error: expect.stringContaining("database is unavailable") });
        await probe.fetchCsrfToken();
        const identityAnswer = await probe.send("POST", "/_allauth/browser/v1/auth/login", { email: "anna@example.com", password: "correct horse battery staple" });
        expect(identityAnswer.status).toBe(503);
        expect(identityAnswer.body).toEqual({ status: 503, message: expect.stringContaining("database is unavailable") });

        await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageSeconds * 1000 - (performance.now() - stoppedAt))));
        const startingAt = performance.now();
        await postgres.start();
        const startedAt = performance.now();
        const result = await load;

        const failures = result.samples.filter((sample) => sample.status < 200 || sample.status >= 300);
        const unavailable = failures.filter((sample) => sample.status === 503);
        const firstSuccessAfterStart = result.samples.find((sample) => sample.endedAt > startedAt && sample.status >= 200 && sample.status < 300);
        const successesBeforeStop = result.samples.filter((sample) => sample.endedAt < stoppingAt && sample.status === 200).length;
        const successesAfterStart = result.samples.filter((sample) => sample.endedAt > startedAt && sample.status === 200).length;
        const first503 = Math.min(...unavailable.map((sample) => sample.endedAt));
        const last503 = Math.max(...unavailable.map((sample) => sample.endedAt));
        const figures = {
          "postgresRestart.learners": restartLearners,
          "postgresRestart.outageSeconds": seconds(startingAt - stoppingAt),
          "postgresRestart.pgCtlStartSeconds": seconds(startedAt - startingAt),
          "postgresRestart.first503AfterStopSeconds": seconds(first503 - stoppingAt),
          "postgresRestart.last503AfterStopSeconds": seconds(last503 - stoppingAt),
          "postgresRestart.answered503": unavailable.length,
          "postgresRestart.otherErrors": failures.length - unavailable.length,
          "postgresRestart.recoverySecondsAfterStart": firstSuccessAfterStart ? seconds(firstSuccessAfterStart.endedAt - startedAt) : -1,
          "postgresRestart.successesAfterStart": successesAfterStart,
        };
        console.info(
          `PostgreSQL restart under ${restartLearners} learners: ${successesBeforeStop} successes before the stop; ` +
            `503s from ${figures["postgresRestart.first503AfterStopSeconds"]} s to ${figures["postgresRestart.last503AfterStopSeconds"]} s after the stop (${unavailable.length} answers, other errors ${figures["postgresRestart.otherErrors"]}); ` +
            `PostgreSQL away ${figures["postgresRestart.outageSeconds"]} s, pg_ctl start took ${figures["postgresRestart.pgCtlStartSeconds"]} s; first success ${figures["postgresRestart.recoverySecondsAfterStart"]} s after it accepted connections, ${successesAfterStart} successes after.`,
        );
        recordFaultFigures(figures);

        expect(failures.filter((sample) => sample.status !== 503)).toEqual([]);
        expect(unavailable.length).toBeGreaterThan(0);
        // Recovered by itself: no 503 later than a few seconds after PostgreSQL accepts connections again.
        expect(last503).toBeLessThan(startedAt + 4_000);
        expect(firstSuccessAfterStart).toBeDefined();
        expect(successesAfterStart).toBeGreaterThan(restartLearners);
        expect(server.isRunning()).toBe(true);
        expect(server.output()).not.toMatch(/Unexpected error while answering/);
        if (process.env.SHOW_SERVER_OUTPUT) console.info(server.output());
      } finally {
        await agent.close();
      }
    },
    (loadBeforeStopSeconds + outageSeconds + loadAfterStartSeconds + 60) * 1000,
  );
});
