import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { codeOf, databaseUnavailableMessage, databaseUnavailableRetryAfterSeconds, errorChainOf, isDatabaseUnavailableError } from "../database/database-errors.ts";
import { isTransactionConflict, transactionConflictMessage } from "../database/transaction-conflicts.ts";
import { HttpError, internalServerErrorMessage } from "./http-errors.ts";
import { logger } from "../logging/logger.ts";

/**
 * The shape of an error answer, by API: allauth's envelope (`{ status, errors }`), the study API's `{ error }` (spec
 * §7), an HTML page for the development billing pages, and `{ message }` everywhere else.
 */
export type ErrorShape = "allauth" | "study" | "page" | "message";

function isBelow(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Which API a path belongs to, and so the shape of its error answers. */
export function errorShapeOf(path: string): ErrorShape {
  if (isBelow(path, "/_allauth")) return "allauth";
  if (isBelow(path, "/api/account")) return "message";
  if (isBelow(path, "/api")) return "study";
  if (isBelow(path, "/dev/billing")) return "page";
  return "message";
}

/** The JSON body of an error answer in one API's shape. */
export function errorBodyOf(shape: Exclude<ErrorShape, "page">, error: HttpError): Record<string, unknown> {
  const message = error.message;
  const envelope = error.code === undefined ? {} : { status: error.status, errors: [{ message, code: error.code }] };
  switch (shape) {
    case "allauth":
      return { status: error.status, message, ...envelope };
    case "study":
      return error.fromTheServer ? { message, error: message, ...envelope } : { error: message };
    case "message":
      return { message, ...envelope };
    default:
      return shape satisfies never;
  }
}

export type ErrorHandlerOptions = {
  /** Renders an error page for the `page` shape (the development billing pages); without it those get JSON. */
  renderPage?: (error: HttpError) => string;
  /** Told of each failure of the database (at most once per outage is the caller's choice). */
  onDatabaseUnavailable?: (error: unknown) => void;
};

/**
 * The server's one `onError`: typed errors (`HttpError`, Hono's `HTTPException`, a database that is away) become
 * answers in the shape of the API the path belongs to; anything else is logged and answered with a generic 500.
 *
 * @example
 * app.onError(createErrorHandler({ onDatabaseUnavailable: warnOncePerOutage }));
 */
export function createErrorHandler(options: ErrorHandlerOptions = {}): ErrorHandler {
  return (error, c) => answerError(c, toHttpError({ method: c.req.method, path: c.req.path }, error, options), options);
}

/**
 * Node's error for a request whose client closed the connection before sending the whole body (`aborted`, with the
 * code ECONNRESET that PostgreSQL's dropped sockets also carry, so it must be told apart before them).
 */
export function isClientAbort(error: unknown): boolean {
  return errorChainOf(error).some((candidate) => candidate instanceof Error && candidate.message === "aborted" && codeOf(candidate) === "ECONNRESET");
}

export const clientAbortMessage = "The request ended before its whole body arrived. Please send it again.";

export const unstorableTextMessage = "The request holds characters that cannot be stored (such as U+0000). Please remove them and try again.";

// PostgreSQL refuses text holding U+0000 (22021 "invalid byte sequence", 22P05 "untranslatable character").
const unstorableTextCodes = new Set(["22021", "22P05"]);

function isUnstorableText(error: unknown): boolean {
  return errorChainOf(error).some((candidate) => unstorableTextCodes.has(codeOf(candidate) ?? ""));
}

/**
 * The `HttpError` a failure is answered with: itself, a client error of Hono's, the 503 of a database that is away, or
 * (logged) a generic 500. The error handler's rule, also used by the node front's routes after their first write.
 */
export function toHttpError(request: { method: string; path: string }, error: unknown, options: ErrorHandlerOptions): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof HTTPException && error.status < 500) {
    return new HttpError(error.status, error.message || "The request could not be processed.", { cause: error });
  }
  if (isClientAbort(error)) {
    logger.info(`The client of ${request.method} ${request.path} closed the connection before sending the whole body.`);
    return new HttpError(400, clientAbortMessage, { fromTheServer: true, cause: error });
  }
  if (isUnstorableText(error)) {
    // A check missing at the edge: the statement failed, so its transaction wrote nothing. Logged, to add that check.
    logger.warn({ err: error }, `Text that PostgreSQL cannot store reached a statement while answering ${request.method} ${request.path}.`);
    return new HttpError(400, unstorableTextMessage, { fromTheServer: true, cause: error });
  }
  if (isDatabaseUnavailableError(error)) {
    options.onDatabaseUnavailable?.(error);
    return new HttpError(503, databaseUnavailableMessage, { headers: { "Retry-After": String(databaseUnavailableRetryAfterSeconds) }, fromTheServer: true, cause: error });
  }
  if (isTransactionConflict(error)) {
    // A deadlock lost every time it was run (`retryTransactionConflicts`): nothing was written, and a moment later it
    // goes through. Logged, as it means writes that lock in orders nobody foresaw.
    logger.warn({ err: error }, `A transaction conflict outlasted its retries while answering ${request.method} ${request.path}.`);
    return new HttpError(503, transactionConflictMessage, { headers: { "Retry-After": "1" }, fromTheServer: true, cause: error });
  }
  logger.error({ err: error }, `Unexpected error while answering ${request.method} ${request.path}:`);
  return new HttpError(500, internalServerErrorMessage, { cause: error });
}

function answerError(c: Context, error: HttpError, options: ErrorHandlerOptions): Response {
  const shape = errorShapeOf(c.req.path);
  // The server's own refusals (CSRF, a database away) stay JSON there too, as on every other path.
  if (shape === "page" && options.renderPage && !error.fromTheServer) {
    return c.html(options.renderPage(error), error.status, error.headers);
  }
  return c.json(errorBodyOf(shape === "page" ? "message" : shape, error), error.status, error.headers);
}
