import type { MiddlewareHandler } from "hono";
import { errorBodyOf, errorShapeOf } from "../http/error-responses.ts";
import { HttpError } from "../http/http-errors.ts";
import { healthCheckPaths } from "./health-routes.ts";

export type ServerLifecycleState = "serving" | "draining";

/**
 * Whether the process still takes new work, and what it is doing. `main.ts` switches it to "draining" on SIGTERM:
 * `/readyz` then answers 503, a request that arrives is answered 503 without being run (`drainingAnswerHeaderName`),
 * and the requests that started before finish with `Connection: close`.
 */
export type ServerLifecycle = {
  state: ServerLifecycleState;
  /** Requests being run (those answered 503 while draining are not). */
  requestsInProgress: number;
  /**
   * `performance.now()` of the last GET or HEAD answered 503 while draining, or null: nginx sends such a request on
   * to the next process and counts this one as failed for its `fail_timeout` (for a POST it does neither).
   */
  lastDrainingAnswerAt: number | null;
  /** `performance.now()` of the last request of any method answered 503 while draining, or null. */
  lastRequestWhileDrainingAt: number | null;
};

/** On a 503 that a draining process gave without running the request: a proxy may send that request elsewhere. */
export const drainingAnswerHeaderName = "X-Atelier-Draining";
export const drainingMessage = "This server process is shutting down and did not run your request. Please try again.";

/**
 * A lifecycle that starts "serving".
 *
 * @example
 * const lifecycle = createServerLifecycle();
 * process.on("SIGTERM", () => (lifecycle.state = "draining"));
 */
export function createServerLifecycle(): ServerLifecycle {
  return { state: "serving", requestsInProgress: 0, lastDrainingAnswerAt: null, lastRequestWhileDrainingAt: null };
}

/**
 * While draining, a new request is answered 503 (`Retry-After: 1`, `X-Atelier-Draining: 1`, `Connection: close`) in
 * its API's shape without running anything, so a proxy can safely send it to another process, even a POST; the
 * requests already running finish and close their connection. Health checks always answer.
 */
export function createDrainingMiddleware(lifecycle: ServerLifecycle): MiddlewareHandler {
  return async (c, next) => {
    if (lifecycle.state === "draining" && !(healthCheckPaths as readonly string[]).includes(c.req.path)) {
      const now = performance.now();
      lifecycle.lastRequestWhileDrainingAt = now;
      if (c.req.method === "GET" || c.req.method === "HEAD") lifecycle.lastDrainingAnswerAt = now;
      const error = new HttpError(503, drainingMessage, { fromTheServer: true });
      const shape = errorShapeOf(c.req.path);
      return c.json(errorBodyOf(shape === "page" ? "message" : shape, error), 503, { "Retry-After": "1", [drainingAnswerHeaderName]: "1", Connection: "close" });
    }
    lifecycle.requestsInProgress += 1;
    try {
      await next();
    } finally {
      lifecycle.requestsInProgress -= 1;
    }
    if (lifecycle.state === "draining") c.res.headers.set("Connection", "close");
  };
}
