import { Worker } from "node:worker_threads";
import type { SessionSelection } from "@atelier/leitner";
import { beforeDatabaseCloses, databaseLocationOf, type DatabaseLocation } from "../database/database-location.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { logger } from "../logging/logger.ts";

/** What the server asks of the large-session worker. */
export type LargeSessionJob =
  | {
      jobId: number;
      /** Counts the session's cards; selects them only when they are at most `selectAtMost`. */
      kind: "count-or-select";
      databaseId: number;
      location: DatabaseLocation;
      learnerKey: string;
      groupId: string;
      selection: SessionSelection;
      selectAtMost: number;
    }
  | { jobId: number; kind: "select"; databaseId: number; location: DatabaseLocation; learnerKey: string; groupId: string; selection: SessionSelection }
  | { jobId: number; kind: "close"; databaseId: number };

/** What the worker answers: `json` is the whole answer of the pairs call, `{"pairs":[…]}`, as UTF-8. */
export type LargeSessionWorkerReply =
  | { jobId: number; status: "counted"; count: number }
  | { jobId: number; status: "selected"; json: Uint8Array }
  | { jobId: number; status: "closed" }
  | { jobId: number; status: "failed"; message: string; code?: string };

type JobReply = Exclude<LargeSessionWorkerReply, { status: "failed" }>;
type DistributiveOmit<Type, Key extends PropertyKey> = Type extends unknown ? Omit<Type, Key> : never;

// A 20,000-card answer is about 9 MB of JSON and a few tens of MB of rows; 512 MB leaves room and still caps a fault.
const workerResourceLimits = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 };

type RunningWorker = { worker: Worker; pending: Map<number, { resolve: (reply: JobReply) => void; reject: (error: Error) => void }> };
let running: RunningWorker | null = null;
let nextJobId = 1;
let nextDatabaseId = 1;
const databaseIds = new WeakMap<object, number>();

/** From source (this module's URL ends in .ts) the loader that starts the TypeScript entry; compiled, the entry beside the bundle. */
function workerScriptUrl(): URL {
  return import.meta.url.endsWith(".ts") ? new URL("./large-session-worker-loader.mjs", import.meta.url) : new URL("./large-session-worker.js", import.meta.url);
}

function failEveryPendingJob(starting: RunningWorker, error: Error): void {
  if (running === starting) running = null;
  for (const { reject } of starting.pending.values()) reject(error);
  starting.pending.clear();
}

function runningWorker(): RunningWorker {
  if (running !== null) return running;
  const worker = new Worker(workerScriptUrl(), { resourceLimits: workerResourceLimits });
  const started: RunningWorker = { worker, pending: new Map() };
  // A worker that fails (its script missing, out of memory) fails the sessions it was reading, never the process: an
  // 'error' event without a listener would be thrown. The next large session starts a new one.
  worker.on("error", (error) => {
    logger.error({ err: error }, "The large-session worker failed.");
    failEveryPendingJob(started, new Error(`The large-session worker failed: ${error.message}`, { cause: error }));
  });
  worker.once("exit", (code) => failEveryPendingJob(started, new Error(`The large-session worker exited with code ${code}.`)));
  worker.on("message", (reply: LargeSessionWorkerReply) => {
    const job = started.pending.get(reply.jobId);
    if (job === undefined) return;
    started.pending.delete(reply.jobId);
    if (reply.status === "failed") job.reject(Object.assign(new Error(reply.message), reply.code === undefined ? {} : { code: reply.code }));
    else job.resolve(reply);
  });
  // Waiting for work does not keep the process alive; a job in flight is awaited by a request, which does.
  worker.unref();
  running = started;
  return started;
}

function send(job: DistributiveOmit<LargeSessionJob, "jobId">): Promise<JobReply> {
  const target = runningWorker();
  const jobId = nextJobId++;
  return new Promise<JobReply>((resolve, reject) => {
    target.pending.set(jobId, { resolve, reject });
    target.worker.postMessage({ ...job, jobId });
  });
}

/** The worker's id for a database, and where it lives; the worker's connection closes when the database does. */
function databaseOf(database: AtelierDatabase): { databaseId: number; location: DatabaseLocation } {
  const location = databaseLocationOf(database);
  if (location === undefined) throw new Error("Large sessions are read by a worker that opens the database again: open the server's database with openDatabase.");
  let databaseId = databaseIds.get(database);
  if (databaseId === undefined) {
    const id = nextDatabaseId++;
    databaseId = id;
    databaseIds.set(database, id);
    beforeDatabaseCloses(database, async () => {
      if (running !== null) await send({ kind: "close", databaseId: id }).catch(() => undefined);
    });
  }
  return { databaseId, location };
}

/**
 * Counts a session's cards in the large-session worker and, when they are at most `selectAtMost`, selects them there
 * too: a session that turns out small costs one trip to the worker, and one that is large is counted before it is read.
 *
 * @example
 * const counted = await countOrSelectLargeSession(database, learner.key, groupId, selection, largeSessionCardCount);
 * if (counted.status === "selected") return c.body(counted.json, 200, { "Content-Type": "application/json" });
 */
export async function countOrSelectLargeSession(
  database: AtelierDatabase,
  learnerKey: string,
  groupId: string,
  selection: SessionSelection,
  selectAtMost: number,
): Promise<{ status: "counted"; count: number } | { status: "selected"; json: Uint8Array }> {
  const reply = await send({ kind: "count-or-select", ...databaseOf(database), learnerKey, groupId, selection, selectAtMost });
  if (reply.status === "counted" || reply.status === "selected") return reply;
  throw new Error(`The large-session worker answered "${reply.status}" to a count.`);
}

/**
 * Selects a session's cards in the large-session worker: the answer of the pairs call, `{"pairs":[…]}`, as UTF-8 JSON.
 *
 * @example
 * return c.body(await selectLargeSession(database, learner.key, groupId, selection), 200, { "Content-Type": "application/json" });
 */
export async function selectLargeSession(database: AtelierDatabase, learnerKey: string, groupId: string, selection: SessionSelection): Promise<Uint8Array> {
  const reply = await send({ kind: "select", ...databaseOf(database), learnerKey, groupId, selection });
  if (reply.status === "selected") return reply.json;
  throw new Error(`The large-session worker answered "${reply.status}" to a selection.`);
}

/** Starts the worker ahead of the first large session (at server start), so that it does not pay the start-up. */
export function warmUpLargeSessionWorker(): void {
  runningWorker();
}

/** Terminates the worker, e.g. on server shutdown (after the database, which closes the worker's connections). */
export async function closeLargeSessionWorker(): Promise<void> {
  const stopping = running;
  running = null;
  await stopping?.worker.terminate();
}
