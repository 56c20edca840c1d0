import os from "node:os";
import type { Agent } from "undici";
import { percentile, roundMilliseconds } from "./latency.ts";
import { cpuSecondsBetween, cpuSecondsOfProcess, cpuSecondsOfProcessesNamed } from "./process-cpu.ts";
import { StudyClient, type StudyAnswer } from "./study-client.ts";

export type RequestKind = "load" | "rate";

/** One answered (or failed) request: `status` 0 is a network error. `endedAt` is `performance.now()`; `learner` numbers the learner from 0. */
export type RequestSample = { kind: RequestKind; status: number; endedAt: number; milliseconds: number; learner: number };

/** A rating the server answered 200: from then on it must be in the database. */
export type AcknowledgedRating = { learnerKey: string; pairId: string; box: number };

export type StudyLoadOptions = {
  server: { url: string; origin: string };
  agent: Agent;
  groupId: string;
  learners: number;
  /** The load stops after this long, or earlier when `signal` aborts. */
  durationMilliseconds: number;
  signal?: AbortSignal;
  /** Cards per study session: one load, then that many ratings. */
  sessionCardCount?: number;
  /** A learner whose request failed waits this long before going on, as a page would. */
  pauseAfterErrorMilliseconds?: number;
  /** Updated as the load goes, for a test that acts in the middle of it. */
  progress?: StudyLoadProgress;
  /**
   * Whose CPU time to measure over the run (on Linux): the server's process, and whether the machine's PostgreSQL
   * processes too. The learners' (this process) is measured whenever this is given.
   */
  measureCpuOf?: { serverPid: number; postgres: boolean };
};

/** CPU seconds used during the run; null where it could not be read (no `/proc`, or not asked for). */
export type StudyLoadCpuSeconds = { server: number | null; postgres: number | null; learners: number };

export type StudyLoadProgress = { started: boolean; acknowledgedRatings: number };

export type StudyLoadResult = {
  learners: number;
  seconds: number;
  /** `performance.now()` when the learners started, after each had fetched its CSRF token. */
  startedAt: number;
  samples: RequestSample[];
  acknowledgedRatings: AcknowledgedRating[];
  /** Per learner key, the pairs whose rating was sent but not answered 200: the server may or may not have saved it. */
  uncertainRatings: Map<string, string[]>;
  /** When `measureCpuOf` was given. */
  cpuSeconds?: StudyLoadCpuSeconds;
};

const defaultSessionCardCount = 5;

/**
 * Simulated learners studying one public group at once, each in its own browser (cookie jar): load a test-mode
 * session of a few cards (GET …/pairs/), rate the first card (POST …/rate/), go to the next card and rate it, and
 * load a new session when the cards are done. A learner answers right unless the card is in box 4, so no card reaches
 * box 5 and no learner meets the anonymous limit of 5 memorized cards (a 403 that is not a fault).
 *
 * @example
 * const result = await runStudyLoad({ server, agent, groupId, learners: 200, durationMilliseconds: 60_000 });
 */
export async function runStudyLoad(options: StudyLoadOptions): Promise<StudyLoadResult> {
  const sessionCardCount = options.sessionCardCount ?? defaultSessionCardCount;
  const pauseAfterError = options.pauseAfterErrorMilliseconds ?? 100;
  const samples: RequestSample[] = [];
  const acknowledgedRatings: AcknowledgedRating[] = [];
  const uncertainRatings = new Map<string, string[]>();

  const clients = Array.from({ length: options.learners }, () => new StudyClient(options.server, options.agent));
  await Promise.all(clients.map((client) => client.fetchCsrfToken()));

  const cpuBefore = options.measureCpuOf && readCpu(options.measureCpuOf);
  const startedAt = performance.now();
  if (options.progress) options.progress.started = true;
  const deadline = startedAt + options.durationMilliseconds;
  const isOver = () => performance.now() >= deadline || options.signal?.aborted === true;
  const pause = () => new Promise((resolve) => setTimeout(resolve, pauseAfterError));

  async function timed(learner: number, kind: RequestKind, send: () => Promise<StudyAnswer>): Promise<StudyAnswer | null> {
    const started = performance.now();
    try {
      const answer = await send();
      samples.push({ kind, status: answer.status, endedAt: performance.now(), milliseconds: answer.milliseconds, learner });
      return answer.status >= 200 && answer.status < 300 ? answer : null;
    } catch {
      samples.push({ kind, status: 0, endedAt: performance.now(), milliseconds: performance.now() - started, learner });
      return null;
    }
  }

  async function study(client: StudyClient, learnerNumber: number): Promise<void> {
    let answerNumber = learnerNumber;
    while (!isOver()) {
      const session = await timed(learnerNumber, "load", () => client.send("GET", `/api/subtitle-groups/${options.groupId}/pairs/?mode=test&cardCount=${sessionCardCount}`));
      if (!session) {
        await pause();
        continue;
      }
      for (const card of session.body.pairs as { id: string; current_box: number }[]) {
        if (isOver()) break;
        answerNumber += 1;
        const isCorrect = card.current_box < 4 && answerNumber % 3 !== 0;
        const learnerKey = client.learnerKey;
        const rating = await timed(learnerNumber, "rate", () => client.send("POST", `/api/subtitle-pairs/${card.id}/rate/`, { is_correct: isCorrect }));
        if (!rating) {
          uncertainRatings.set(learnerKey, [...(uncertainRatings.get(learnerKey) ?? []), card.id]);
          await pause();
          break;
        }
        acknowledgedRatings.push({ learnerKey, pairId: card.id, box: rating.body.pair.current_box });
        if (options.progress) options.progress.acknowledgedRatings += 1;
      }
    }
  }

  await Promise.all(clients.map((client, index) => study(client, index)));
  const seconds = (performance.now() - startedAt) / 1000;
  const cpuSeconds = options.measureCpuOf && cpuBefore && cpuSecondsSince(cpuBefore, readCpu(options.measureCpuOf));
  return { learners: options.learners, seconds, startedAt, samples, acknowledgedRatings, uncertainRatings, ...(cpuSeconds && { cpuSeconds }) };
}

type CpuReading = { server: number | null; postgres: Map<number, number> | null; learners: NodeJS.CpuUsage };

function readCpu(of: NonNullable<StudyLoadOptions["measureCpuOf"]>): CpuReading {
  return { server: cpuSecondsOfProcess(of.serverPid), postgres: of.postgres ? cpuSecondsOfProcessesNamed("postgres") : null, learners: process.cpuUsage() };
}

function cpuSecondsSince(before: CpuReading, after: CpuReading): StudyLoadCpuSeconds {
  return {
    server: after.server === null || before.server === null ? null : after.server - before.server,
    postgres: after.postgres === null || before.postgres === null ? null : cpuSecondsBetween(before.postgres, after.postgres),
    learners: (after.learners.user - before.learners.user + after.learners.system - before.learners.system) / 1e6,
  };
}

export type StudyLoadSummary = {
  learners: number;
  seconds: number;
  requests: number;
  errors: number;
  /** Failed requests by status ("0" is a network error). */
  errorsByStatus: Record<string, number>;
  requestsPerSecond: number;
  ratingsPerSecond: number;
  p50Milliseconds: number;
  p99Milliseconds: number;
  maximumMilliseconds: number;
  loadP50Milliseconds: number;
  loadP99Milliseconds: number;
  rateP50Milliseconds: number;
  rateP99Milliseconds: number;
  /** The same percentiles over the requests sent after the warm-up (`warmUpMilliseconds`), when every learner is under way. */
  warmUpSeconds: number;
  steadyP50Milliseconds: number;
  steadyP99Milliseconds: number;
  steadyLoadP99Milliseconds: number;
  steadyRateP99Milliseconds: number;
  /**
   * CPU time a request of the run, in µs, when it was measured: the server's process, the machine's PostgreSQL
   * processes (every database's, autovacuum included) and the learners' (this process, the test runner's share
   * included); and how many cores the three kept busy on average. What latency cannot tell apart: a slower machine,
   * or more work a request.
   */
  serverCpuMicrosecondsPerRequest?: number;
  postgresCpuMicrosecondsPerRequest?: number;
  learnersCpuMicrosecondsPerRequest?: number;
  coresBusy?: number;
};

/**
 * The first seconds of a run left out of the steady figures: every learner sends its first request at the same
 * instant, to a server whose pool has no connection yet (decision 0047's revision). The whole run's figures keep them.
 */
export const defaultWarmUpMilliseconds = 5_000;

/**
 * Counts, throughput and latency percentiles of a load run; latencies are of successful requests only. The steady
 * percentiles are of the requests sent `warmUpMilliseconds` or more after the start.
 */
export function summarizeStudyLoad(result: StudyLoadResult, warmUpMilliseconds = defaultWarmUpMilliseconds): StudyLoadSummary {
  const succeeded = result.samples.filter((sample) => sample.status >= 200 && sample.status < 300);
  const errorsByStatus: Record<string, number> = {};
  for (const sample of result.samples) {
    if (sample.status >= 200 && sample.status < 300) continue;
    errorsByStatus[String(sample.status)] = (errorsByStatus[String(sample.status)] ?? 0) + 1;
  }
  const all = succeeded.map((sample) => sample.milliseconds);
  const ofKind = (kind: RequestKind) => succeeded.filter((sample) => sample.kind === kind).map((sample) => sample.milliseconds);
  const steady = succeeded.filter((sample) => sample.endedAt - sample.milliseconds >= result.startedAt + warmUpMilliseconds);
  const steadyOfKind = (kind: RequestKind) => steady.filter((sample) => sample.kind === kind).map((sample) => sample.milliseconds);
  return {
    learners: result.learners,
    seconds: Math.round(result.seconds * 10) / 10,
    requests: result.samples.length,
    errors: result.samples.length - succeeded.length,
    errorsByStatus,
    requestsPerSecond: Math.round(succeeded.length / result.seconds),
    ratingsPerSecond: Math.round(result.acknowledgedRatings.length / result.seconds),
    p50Milliseconds: roundMilliseconds(percentile(all, 50)),
    p99Milliseconds: roundMilliseconds(percentile(all, 99)),
    maximumMilliseconds: roundMilliseconds(all.reduce((maximum, value) => Math.max(maximum, value), 0)),
    loadP50Milliseconds: roundMilliseconds(percentile(ofKind("load"), 50)),
    loadP99Milliseconds: roundMilliseconds(percentile(ofKind("load"), 99)),
    rateP50Milliseconds: roundMilliseconds(percentile(ofKind("rate"), 50)),
    rateP99Milliseconds: roundMilliseconds(percentile(ofKind("rate"), 99)),
    warmUpSeconds: warmUpMilliseconds / 1000,
    steadyP50Milliseconds: roundMilliseconds(percentile(steady.map((sample) => sample.milliseconds), 50)),
    steadyP99Milliseconds: roundMilliseconds(percentile(steady.map((sample) => sample.milliseconds), 99)),
    steadyLoadP99Milliseconds: roundMilliseconds(percentile(steadyOfKind("load"), 99)),
    steadyRateP99Milliseconds: roundMilliseconds(percentile(steadyOfKind("rate"), 99)),
    ...cpuFiguresOf(result),
  };
}

function cpuFiguresOf(result: StudyLoadResult): Partial<StudyLoadSummary> {
  const cpu = result.cpuSeconds;
  if (cpu === undefined || result.samples.length === 0) return {};
  const perRequest = (seconds: number) => Math.round((seconds * 1e6) / result.samples.length);
  const busySeconds = (cpu.server ?? 0) + (cpu.postgres ?? 0) + cpu.learners;
  return {
    ...(cpu.server !== null && { serverCpuMicrosecondsPerRequest: perRequest(cpu.server) }),
    ...(cpu.postgres !== null && { postgresCpuMicrosecondsPerRequest: perRequest(cpu.postgres) }),
    learnersCpuMicrosecondsPerRequest: perRequest(cpu.learners),
    coresBusy: Math.round((busySeconds / result.seconds) * 100) / 100,
  };
}

/** One line for the test output. */
export function formatStudyLoadSummary(label: string, summary: StudyLoadSummary): string {
  return (
    `${label}: ${summary.learners} learners for ${summary.seconds} s, ${summary.requests} requests, ${summary.errors} errors` +
    `${summary.errors > 0 ? ` ${JSON.stringify(summary.errorsByStatus)}` : ""}; ${summary.requestsPerSecond} requests/s (${summary.ratingsPerSecond} ratings/s); ` +
    `p50 ${summary.p50Milliseconds} ms, p99 ${summary.p99Milliseconds} ms, max ${summary.maximumMilliseconds} ms ` +
    `(load p50/p99 ${summary.loadP50Milliseconds}/${summary.loadP99Milliseconds} ms, rate ${summary.rateP50Milliseconds}/${summary.rateP99Milliseconds} ms); ` +
    `after the first ${summary.warmUpSeconds} s: p50 ${summary.steadyP50Milliseconds} ms, p99 ${summary.steadyP99Milliseconds} ms (load p99 ${summary.steadyLoadP99Milliseconds} ms, rate p99 ${summary.steadyRateP99Milliseconds} ms)` +
    formatCpu(summary)
  );
}

function formatCpu(summary: StudyLoadSummary): string {
  if (summary.learnersCpuMicrosecondsPerRequest === undefined) return "";
  const parts = [
    summary.serverCpuMicrosecondsPerRequest === undefined ? null : `server ${summary.serverCpuMicrosecondsPerRequest} µs`,
    summary.postgresCpuMicrosecondsPerRequest === undefined ? null : `PostgreSQL ${summary.postgresCpuMicrosecondsPerRequest} µs`,
    `learners ${summary.learnersCpuMicrosecondsPerRequest} µs`,
  ].filter((part) => part !== null);
  return `; CPU a request: ${parts.join(", ")} (${summary.coresBusy} of ${os.availableParallelism()} cores busy)`;
}
