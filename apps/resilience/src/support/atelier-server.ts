import { startAtelierServer as startServer, type RunningAtelierServer, type StartAtelierServerOptions } from "@atelier/server/testing";

export { findFreePort, spawnAtelierServer, type RunningAtelierServer } from "@atelier/server/testing";

/** The real server as `@atelier/server/testing` starts it, with e-mail verification off so a learner signs up in one request. */
export function startAtelierServer(options: StartAtelierServerOptions = {}): Promise<RunningAtelierServer> {
  return startServer({ ...options, environment: { ACCOUNT_EMAIL_VERIFICATION: "none", ...options.environment } });
}
