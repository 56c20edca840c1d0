import { Worker } from "node:worker_threads";
import { SubtitleParseError, isSubtitleParseErrorCode } from "./subtitle-parse-error.ts";
import { DEFAULT_SUBTITLE_PARSE_LIMITS, type ParsedSubtitleTrack, type SubtitleParseLimits } from "./subtitle-types.ts";

export interface SubtitleWorkerParseOptions {
  limits?: Partial<SubtitleParseLimits>;
  /** Wall-clock limit from the call to the answer, including a cold worker's start-up (default 2,000 ms). */
  timeoutMilliseconds?: number;
}

type WorkerReply =
  | { status: "ready" }
  | { jobId: number; status: "parsed"; track: ParsedSubtitleTrack }
  | { jobId: number; status: "failed"; code: unknown; message: string };

// A 5 MB upload becomes at most a few tens of MB of tree; 256 MB leaves room and still caps abuse.
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };
// Starting a worker that loads TypeScript costs most of a second, so up to two finished workers wait for the next
// upload. A worker that timed out or failed is always terminated, never reused.
const MAXIMUM_IDLE_WORKERS = 2;
const idleWorkers: Worker[] = [];
let nextJobId = 1;

/** Workers whose script has loaded: on a busy machine a start-up can take longer than a parse may. */
const readyWorkers = new WeakSet<Worker>();
/** How long a new worker may take to start before the upload fails; the parse's own limit starts after it. */
const WORKER_STARTUP_TIMEOUT_MILLISECONDS = 15_000;

function createParseWorker(): Worker {
  const worker = new Worker(new URL("./parse-worker.mjs", import.meta.url), { resourceLimits: WORKER_RESOURCE_LIMITS });
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
  const timeoutMilliseconds = options.timeoutMilliseconds ?? 2_000;
  const maximumBytes = options.limits?.maximumBytes ?? DEFAULT_SUBTITLE_PARSE_LIMITS.maximumBytes;
  // Refused before any thread is involved: the cheapest check on the most common abuse.
  if (input.byteLength > maximumBytes) return Promise.reject(new SubtitleParseError("too-large"));
  const worker = idleWorkers.pop() ?? createParseWorker();
  worker.ref();
  const jobId = nextJobId++;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { track: ParsedSubtitleTrack } | { error: SubtitleParseError }, reusable: boolean) => {
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
      if ("track" in outcome) resolve(outcome.track);
      else reject(outcome.error);
    };
    const onMessage = (reply: WorkerReply) => {
      if (reply.status === "ready") {
        startParseTimer();
        return;
      }
      if (reply.jobId !== jobId) return;
      if (reply.status === "parsed") finish({ track: reply.track }, true);
      else finish({ error: new SubtitleParseError(isSubtitleParseErrorCode(reply.code) ? reply.code : "worker-failed", reply.message) }, true);
    };
    const onError = (error: Error) => {
      // ERR_WORKER_OUT_OF_MEMORY: the input was too much for the worker's memory cap.
      const code = (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY" ? "too-large" : "worker-failed";
      finish({ error: new SubtitleParseError(code, error.message) }, false);
    };
    const onExit = (exitCode: number) => finish({ error: new SubtitleParseError("worker-failed", `worker exited with code ${exitCode}`) }, false);
    // The parse's limit counts from the moment the worker can parse, so a slow start-up is not blamed on the file.
    let timer = setTimeout(
      () => finish({ error: new SubtitleParseError("worker-failed", `the parse worker did not start within ${WORKER_STARTUP_TIMEOUT_MILLISECONDS} ms`) }, false),
      WORKER_STARTUP_TIMEOUT_MILLISECONDS,
    );
    let parseTimerStarted = false;
    const startParseTimer = () => {
      if (parseTimerStarted || settled) return;
      parseTimerStarted = true;
      clearTimeout(timer);
      timer = setTimeout(() => finish({ error: new SubtitleParseError("timeout", `after ${timeoutMilliseconds} ms`) }, false), timeoutMilliseconds);
    };
    if (readyWorkers.has(worker)) startParseTimer();
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    // Copied rather than transferred: the caller keeps its buffer.
    worker.postMessage({ jobId, input, limits: options.limits ?? {} });
  });
}
