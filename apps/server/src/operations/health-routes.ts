import { Hono } from "hono";
import { sql } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { ServerLifecycle } from "./server-lifecycle.ts";
import { logger } from "../logging/logger.ts";

/** How long `/readyz` waits for the database before it answers 503: a proxy's check must not hang. */
export const readinessDatabaseTimeoutMilliseconds = 2_000;

export type HealthAnswer =
  | { status: "alive" }
  | { status: "ready" }
  | { status: "draining"; message: string }
  | { status: "unavailable"; message: string };

/** Exact paths answered in JSON for proxies and orchestrators. */
export const healthCheckPaths = ["/healthz", "/readyz"] as const;

/**
 * `GET /healthz`: the process runs and its event loop answers (no database call, so a database outage never makes
 * an orchestrator restart healthy processes). `GET /readyz`: the database answers a query within 2 s and the process
 * is not draining; otherwise 503, so that a proxy or orchestrator sends the traffic elsewhere.
 *
 * @example
 * app.route("/", createHealthRoutes({ database, lifecycle }));
 */
export function createHealthRoutes(options: { database: AtelierDatabase; lifecycle: ServerLifecycle }): Hono {
  const { database, lifecycle } = options;
  const routes = new Hono();
  routes.get("/healthz", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ status: "alive" } satisfies HealthAnswer);
  });
  routes.get("/readyz", async (c) => {
    c.header("Cache-Control", "no-store");
    if (lifecycle.state === "draining") {
      return c.json({ status: "draining", message: "This process is shutting down; send new requests to another one." } satisfies HealthAnswer, 503);
    }
    const problem = await checkDatabaseAnswers(database);
    if (problem !== null) return c.json({ status: "unavailable", message: problem } satisfies HealthAnswer, 503);
    return c.json({ status: "ready" } satisfies HealthAnswer);
  });
  return routes;
}

/** `null` when `SELECT 1` answers within the timeout, else a sentence for the operator. */
async function checkDatabaseAnswers(database: AtelierDatabase): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`The database did not answer within ${readinessDatabaseTimeoutMilliseconds / 1000} s.`), readinessDatabaseTimeoutMilliseconds);
  });
  const answered = sql`SELECT 1`.execute(database).then(
    () => null,
    (error: unknown) => {
      // The cause stays in the log: a public answer must not name hosts or users.
      logger.warn(`Readiness check: the database does not answer (${error instanceof Error ? error.message : String(error)}).`);
      return "The database does not answer.";
    },
  );
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
