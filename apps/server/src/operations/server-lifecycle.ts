import type { MiddlewareHandler } from "hono";

export type ServerLifecycleState = "serving" | "draining";

/**
 * Whether the process still takes new work. `main.ts` switches it to "draining" on SIGTERM; `/readyz` then answers
 * 503 and every answer carries `Connection: close`, so that no keep-alive connection outlives the drain.
 */
export type ServerLifecycle = { state: ServerLifecycleState };

/**
 * A lifecycle that starts "serving".
 *
 * @example
 * const lifecycle = createServerLifecycle();
 * process.on("SIGTERM", () => (lifecycle.state = "draining"));
 */
export function createServerLifecycle(): ServerLifecycle {
  return { state: "serving" };
}

/** While draining, each answer closes its connection after it is sent. */
export function createCloseConnectionsWhileDrainingMiddleware(lifecycle: ServerLifecycle): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (lifecycle.state === "draining") c.res.headers.set("Connection", "close");
  };
}
