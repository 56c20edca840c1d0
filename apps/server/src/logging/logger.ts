import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import type { MiddlewareHandler } from "hono";
import pino from "pino";
import { arrivalTimeOf } from "../http/turn-admission.ts";

const requestContext = new AsyncLocalStorage<{ requestId: string }>();

/** `LOG_LEVEL` (pino's levels, `silent` included); `info` by default, `silent` under vitest unless set. */
function levelFromEnvironment(): string {
  const configured = process.env.LOG_LEVEL?.trim();
  if (configured) return configured;
  return process.env.VITEST ? "silent" : "info";
}

/**
 * The server's one log: JSON lines on standard output (pino). Every line written while a request is answered carries
 * that request's `requestId` (the `X-Request-Id` the server answers with), wherever in the code it is written.
 *
 * @example
 * logger.error({ err: error }, "The identity mail could not be sent.");
 */
/** Buffered (at least 4 KB a write, so a busy server does not make a system call per request); flushed before exit. */
// At most 16 MB waits for a slow reader of standard output; beyond that lines are dropped, not memory exhausted.
const standardOutput = pino.destination({ dest: 1, sync: false, minLength: 4096, maxLength: 16 * 1024 * 1024 });
export const logger = createLogger({ level: levelFromEnvironment(), destination: standardOutput });

/** Writes out what the log still holds; call it before `process.exit()`. */
export function flushLogs(): void {
  try {
    standardOutput.flushSync();
  } catch {
    // Nothing buffered yet (the stream is not ready before its first write), or standard output is gone.
  }
}

/**
 * A logger of the server's shape writing to `destination` (the server's own buffers its writes to standard output and
 * is flushed by `flushLogs()` before the process exits); tests give it a stream of their own.
 */
export function createLogger(options: { level: string; destination: pino.DestinationStream }): pino.Logger {
  return pino(
    {
      level: options.level,
      base: { service: "atelier" },
      mixin: () => {
        const store = requestContext.getStore();
        return store ? { requestId: store.requestId } : {};
      },
    },
    options.destination,
  );
}

const quietPaths = new Set(["/healthz", "/readyz"]);

/** The longest `X-Request-Id` a client may choose; hono/request-id's limit. */
const requestIdLengthLimit = 255;

/**
 * The id of a request: the client's `X-Request-Id` if it is a plain token (word characters, `-`, `=`) of at most 255
 * characters, else a new UUID. hono/request-id's rule, kept in one place for the Hono stack and the node front.
 */
export function requestIdOf(sentRequestId: string | undefined): string {
  if (!sentRequestId || sentRequestId.length > requestIdLengthLimit || /[^\w\-=]/.test(sentRequestId)) return crypto.randomUUID();
  return sentRequestId;
}

/** The one line logged per answer (method, path, status, milliseconds); health checks only at `debug`. */
export function logAnswer(log: pino.Logger, answer: { requestId?: string; method: string; path: string; status: number; startedAt: number }): void {
  const { requestId, method, path, status, startedAt } = answer;
  const level = quietPaths.has(path) ? "debug" : "info";
  // Nothing built for a line the level drops, and no object spread: V8 took about 1 µs to spread even `{ requestId }`
  // into a literal, on every request the server answers.
  if (!log.isLevelEnabled(level)) return;
  const milliseconds = Math.round(performance.now() - startedAt);
  log[level](requestId === undefined ? { method, path, status, milliseconds } : { requestId, method, path, status, milliseconds }, "request");
}

/**
 * Gives each request an id (`X-Request-Id`, see `requestIdOf`), makes it the context of every log line written while
 * the request is answered, and logs one line per answer (`logAnswer`).
 *
 * @example
 * app.use(createRequestLogMiddleware());
 */
export function createRequestLogMiddleware(options: { logger?: pino.Logger } = {}): MiddlewareHandler {
  const log = options.logger ?? logger;
  return async (c, next) => {
    const requestId = requestIdOf(c.req.header("X-Request-Id"));
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    const startedAt = arrivalTimeOf((c.env as { incoming?: IncomingMessage } | undefined)?.incoming) ?? performance.now();
    await requestContext.run({ requestId }, async () => {
      await next();
      logAnswer(log, { method: c.req.method, path: c.req.path, status: c.res.status, startedAt });
    });
  };
}
