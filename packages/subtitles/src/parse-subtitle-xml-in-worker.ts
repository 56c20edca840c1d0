import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { AlignmentReport, SentencePair, SubtitleAlignmentOptions } from "./align-subtitle-tracks.ts";
import { SubtitleParseError, isSubtitleParseErrorCode } from "./subtitle-parse-error.ts";
import { DEFAULT_SUBTITLE_PARSE_LIMITS, type ParsedSubtitleTrack, type SubtitleParseLimits } from "./subtitle-types.ts";
import type { SubtitleWorkerRequest } from "./subtitle-worker.ts";

/** The worker's TypeScript entry, relative to the package: the server's build compiles it to `subtitle-worker.js`. */
export const subtitleWorkerEntrySourcePath = "src/subtitle-worker.ts";

export interface SubtitleWorkerParseOptions {
  limits?: Partial<SubtitleParseLimits>;
  /** Wall-clock limit of the parse, counted once it is the job's turn and its worker is ready (default 2,000 ms). */
  timeoutMilliseconds?: number;
}

export interface SubtitleWorkerAlignOptions {
  alignment?: SubtitleAlignmentOptions;
  /** Wall-clock limit of the alignment, counted once it is the job's turn and its worker is ready (default 20,000 ms). */
  timeoutMilliseconds?: number;
}

type WorkerReply =
  | { status: "ready" }
  | { jobId: number; status: "done"; result: unknown }
  | { jobId: number; status: "failed"; code: unknown; message: string };

// A 5 MB upload becomes at most a few tens of MB of tree; 256 MB leaves room and still caps abuse.
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };
// Starting a worker that loads TypeScript costs most of a second, so up to two finished workers wait for the next
// upload. A worker that timed out or failed is always terminated, never reused.
const MAXIMUM_IDLE_WORKERS = 2;
const idleWorkers: Worker[] = [];
let nextJobId = 1;

/**
 * Jobs running at once; more wait their turn, their time limits not yet running. Each job keeps a core busy, and the
 * caller's event loop needs one too: on 2 cores, two uploads' four parses and two alignments at once took the event
 * loop's share of the CPU (decision 0065).
 */
let maximumRunningJobs = Math.max(1, availableParallelism() - 1);
let runningJobs = 0;
const jobsWaitingForTheirTurn: (() => void)[] = [];

/**
 * Sets how many parse and alignment jobs may run at once (by default the cores less one, at least one), e.g. for a
 * machine where other processes leave more cores idle, or for a test; answers the limit it replaces.
 *
 * @example
 * const previous = limitRunningSubtitleJobs(3);
 */
export function limitRunningSubtitleJobs(maximum: number): number {
  if (!Number.isSafeInteger(maximum) || maximum < 1) throw new RangeError(`Expected at least one job at a time, got ${maximum}.`);
  const previous = maximumRunningJobs;
  maximumRunningJobs = maximum;
  while (runningJobs < maximumRunningJobs && jobsWaitingForTheirTurn.length > 0) startNextWaitingJob();
  return previous;
}

function startNextWaitingJob(): void {
  const start = jobsWaitingForTheirTurn.shift();
  if (start === undefined) return;
  runningJobs += 1;
  start();
}

/** Runs the job when fewer than `maximumRunningJobs` run, else once one of them has finished, in the order asked. */
async function runInTurn<Result>(job: () => Promise<Result>): Promise<Result> {
  if (runningJobs < maximumRunningJobs) runningJobs += 1;
  else await new Promise<void>((resolve) => jobsWaitingForTheirTurn.push(resolve));
  try {
    return await job();
  } finally {
    runningJobs -= 1;
    if (runningJobs < maximumRunningJobs) startNextWaitingJob();
  }
}

/** Workers whose script has loaded: on a busy machine a start-up can take longer than a parse may. */
const readyWorkers = new WeakSet<Worker>();
/** How long a new worker may take to start before the upload fails; the parse's own limit starts after it. */
const WORKER_STARTUP_TIMEOUT_MILLISECONDS = 15_000;

/**
 * The worker's script: from source (this module's URL ends in .ts) the loader that starts the TypeScript entry; in the
 * server's compiled bundle, whose URL is dist/main.js, the compiled entry beside it.
 */
function subtitleWorkerScriptUrl(): URL {
  return import.meta.url.endsWith(".ts") ? new URL("./subtitle-worker-loader.mjs", import.meta.url) : new URL("./subtitle-worker.js", import.meta.url);
}

function createParseWorker(): Worker {
  const worker = new Worker(subtitleWorkerScriptUrl(), { resourceLimits: WORKER_RESOURCE_LIMITS });
  // A worker that cannot start (its script missing, out of memory) must fail its job, never the whole process: an
  // 'error' event without a listener would be thrown.
  worker.on("error", () => undefined);
  worker.once("exit", () => {
    const index = idleWorkers.indexOf(worker);
    if (index !== -1) idleWorkers.splice(index, 1);
  });
  worker.on("message", function markReady(reply: WorkerReply) {
    if (reply.status === "ready") {
      readyWorkers.add(worker);
      worker.off("message", markReady);
    }
  });
  worker.unref();
  return worker;
}

/** Starts a worker ahead of the first upload (e.g. at server start), so that upload does not pay the start-up. */
export function warmUpSubtitleParseWorker(): void {
  if (idleWorkers.length === 0) idleWorkers.push(createParseWorker());
}

/** Terminates the waiting workers, e.g. on server shutdown. */
export async function closeSubtitleParseWorkers(): Promise<void> {
  const workers = idleWorkers.splice(0);
  await Promise.all(workers.map((worker) => worker.terminate()));
}

/**
 * Parses an upload in a `node:worker_threads` worker and terminates it on timeout, so hostile XML costs at most the
 * timeout and one worker's memory. Rejects only with `SubtitleParseError` (code "timeout" on expiry).
 *
 * @example
 * const track = await parseSubtitleXmlInWorker(new Uint8Array(await file.arrayBuffer()), { timeoutMilliseconds: 2000 });
 */
export function parseSubtitleXmlInWorker(input: Uint8Array, options: SubtitleWorkerParseOptions = {}): Promise<ParsedSubtitleTrack> {
  const maximumBytes = options.limits?.maximumBytes ?? DEFAULT_SUBTITLE_PARSE_LIMITS.maximumBytes;
  // Refused before any thread is involved: the cheapest check on the most common abuse.
  if (input.byteLength > maximumBytes) return Promise.reject(new SubtitleParseError("too-large"));
  return runInWorker<ParsedSubtitleTrack>({ kind: "parse", input, limits: options.limits ?? {} }, options.timeoutMilliseconds ?? 2_000);
}

/**
 * Aligns two parsed tracks in a worker, so that a large pair never stalls the server's other requests (the alignment
 * of two 19,000-cue films takes seconds of CPU). Rejects only with `SubtitleParseError` ("timeout" on expiry).
 *
 * @example
 * const { pairs, report } = await alignSubtitleTracksInWorker(english, swedish);
 */
export function alignSubtitleTracksInWorker(english: ParsedSubtitleTrack, swedish: ParsedSubtitleTrack, options: SubtitleWorkerAlignOptions = {}): Promise<{ pairs: SentencePair[]; report: AlignmentReport }> {
  return runInWorker({ kind: "align", english, swedish, options: options.alignment ?? {} }, options.timeoutMilliseconds ?? 20_000);
}

type WorkerJob = SubtitleWorkerRequest extends infer Request ? (Request extends { jobId: number } ? Omit<Request, "jobId"> : never) : never;

function runInWorker<Result>(job: WorkerJob, timeoutMilliseconds: number): Promise<Result> {
  return runInTurn(() => runInWorkerNow<Result>(job, timeoutMilliseconds));
}

function runInWorkerNow<Result>(job: WorkerJob, timeoutMilliseconds: number): Promise<Result> {
  const worker = idleWorkers.pop() ?? createParseWorker();
  worker.ref();
  const jobId = nextJobId++;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { result: Result } | { error: SubtitleParseError }, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (reusable && idleWorkers.length < MAXIMUM_IDLE_WORKERS) {
        worker.unref();
        idleWorkers.push(worker);
      } else {
        void worker.terminate();
      }
      if ("result" in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    const onMessage = (reply: WorkerReply) => {
      if (reply.status === "ready") {
        startJobTimer();
        return;
      }
      if (reply.jobId !== jobId) return;
      if (reply.status === "done") finish({ result: reply.result as Result }, true);
      else finish({ error: new SubtitleParseError(isSubtitleParseErrorCode(reply.code) ? reply.code : "worker-failed", reply.message) }, true);
    };
    const onError = (error: Error) => {
      // ERR_WORKER_OUT_OF_MEMORY: the input was too much for the worker's memory cap.
      const code = (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY" ? "too-large" : "worker-failed";
      finish({ error: new SubtitleParseError(code, error.message) }, false);
    };
    const onExit = (exitCode: number) => finish({ error: new SubtitleParseError("worker-failed", `worker exited with code ${exitCode}`) }, false);
    // The job's limit counts from the moment the worker can work, so a slow start-up is not blamed on the file.
    let timer = setTimeout(
      () => finish({ error: new SubtitleParseError("worker-failed", `the subtitle worker did not start within ${WORKER_STARTUP_TIMEOUT_MILLISECONDS} ms`) }, false),
      WORKER_STARTUP_TIMEOUT_MILLISECONDS,
    );
    let jobTimerStarted = false;
    const startJobTimer = () => {
      if (jobTimerStarted || settled) return;
      jobTimerStarted = true;
      clearTimeout(timer);
      timer = setTimeout(() => finish({ error: new SubtitleParseError("timeout", `after ${timeoutMilliseconds} ms`) }, false), timeoutMilliseconds);
    };
    if (readyWorkers.has(worker)) startJobTimer();
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    // Copied rather than transferred: the caller keeps its buffer.
    worker.postMessage({ ...job, jobId });
  });
}
