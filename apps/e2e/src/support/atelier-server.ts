import { startAtelierServer as startServer, type RunningAtelierServer } from "@atelier/server/testing";

export type { RunningAtelierServer };

/**
 * Starts the real server on a free port with its own data directory (see `@atelier/server/testing`). Its origin is
 * always `http://localhost:PORT`: WebAuthn refuses 127.0.0.1, and cookies are per host name.
 */
export function startAtelierServer(environment: Record<string, string> = {}): Promise<RunningAtelierServer> {
  return startServer({ environment });
}
