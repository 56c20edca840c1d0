import { Server as NetServer } from "node:net";
import { ConfigurationError, loadConfiguration } from "./config.ts";
import { createServer } from "./create-server.ts";
import { serveAtelier } from "./http/serve-atelier.ts";
import { migrateToLatest } from "./database/migrations.ts";
import { describeDatabaseStartupFailure } from "./database/database-errors.ts";
import { openDatabase, type OpenedDatabase } from "./database/open-database.ts";
import { closeSubtitleParseWorkers } from "@atelier/subtitles/node";
import { createServerLifecycle } from "./operations/index.ts";
import { startRetentionPruning } from "./operations/retention-pruning.ts";
import { addLocalOpenIdProvider, localOpenIdRedirectUriOf, startLocalOpenIdProvider, type LocalOpenIdProvider } from "./identity/index.ts";
import { flushLogs, logger } from "./logging/logger.ts";
import { systemClock } from "./clock.ts";
import { closeLargeSessionWorker } from "./study/index.ts";

/** How long SIGTERM waits for the requests in flight before closing their connections. */
const drainDeadlineMilliseconds = 10_000;
const netServerClose = NetServer.prototype.close;
const keepAliveTimeoutMilliseconds = 65_000;
/**
 * A proxy that got a draining 503 leaves the process alone for its `fail_timeout` (docs/deploy.md: 2 s): the port
 * closes inside that window, when no connection from it can be on its way.
 */
const closeAfterDrainingAnswerMilliseconds = { earliest: 50, latest: 1_500 };
/** With no request at all for this long, no proxy is sending here (it would have retried within its 2 s). */
const quietBeforeClosingMilliseconds = 3_000;

async function main(): Promise<void> {
  let configuration;
  try {
    configuration = loadConfiguration(process.env);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      // Before the server runs, an operator reads this in a terminal: plain text on standard error, not a JSON line.
      flushLogs();
      console.error(`${error.message}\nSee apps/server/CONFIGURATION.md for every setting.`);
      process.exit(1);
    }
    throw error;
  }

  let openedDatabase: OpenedDatabase;
  try {
    openedDatabase = openDatabase({ databaseUrl: configuration.databaseUrl, dataDirectory: configuration.dataDirectory });
    await migrateToLatest(openedDatabase.database);
  } catch (error) {
    const problem = describeDatabaseStartupFailure(error, configuration);
    if (problem === null) throw error;
    flushLogs();
    console.error(problem);
    process.exit(1);
  }

  let localOpenIdProvider: LocalOpenIdProvider | null = null;
  if (configuration.localOpenIdProvider) {
    try {
      localOpenIdProvider = await startLocalOpenIdProvider({ port: configuration.localOpenIdProvider.port, redirectUris: [localOpenIdRedirectUriOf(configuration.publicOrigin)] });
    } catch (error) {
      const reason = (error as { code?: string }).code === "EADDRINUSE" ? `port ${configuration.localOpenIdProvider.port} is taken` : String(error);
      flushLogs();
      console.error(`The local OpenID provider could not start: ${reason}. Set LOCAL_OIDC_PORT to a free port (0 picks one), or LOCAL_OIDC_PROVIDER=false.`);
      process.exit(1);
    }
    configuration = addLocalOpenIdProvider(configuration, localOpenIdProvider);
  }
  // Printed once nothing can stop the start any more: a refusal is then the last line the operator sees.
  logger.info(`Database: ${openedDatabase.engine} at ${openedDatabase.location}`);
  logger.info(`Mail: ${configuration.smtpUrl ? "SMTP" : "development outbox at /dev/outbox/view"}; captcha: ${configuration.captcha.provider}`);
  const identity = configuration.identity;
  logger.info(`Accounts: e-mail verification ${identity.emailVerification} by ${identity.emailVerificationByCodeEnabled ? "code" : "link"}, sign-in by code ${identity.loginByCodeEnabled ? "on" : "off"}, password reset by ${identity.passwordResetByCodeEnabled ? "code" : "link"}; CSRF origin ${configuration.publicOrigin}`);
  const providerNames = configuration.identity.socialProviders.map((provider) => (provider.id === "local" ? `${provider.name} at ${localOpenIdProvider?.issuer}` : provider.name));
  logger.info(`Third-party sign-in: ${providerNames.length > 0 ? providerNames.join(", ") : "none configured"}`);

  const lifecycle = createServerLifecycle();
  const clock = systemClock;
  const app = createServer({ configuration, database: openedDatabase.database, lifecycle, clock });
  // At start and hourly: the data of accounts and learners that stay away expires too (decisions 0026, 0084).
  const retentionPruning = startRetentionPruning({ database: openedDatabase.database, clock });
  const server = serveAtelier(app, { port: configuration.port, hostname: configuration.host }, () => {
    logger.info(`Atelier is running at http://localhost:${configuration.port}`);
  });
  // Longer than a proxy keeps an idle upstream connection (nginx: 60 s), so the proxy, not this process, closes idle
  // ones: a connection closed here while the proxy sends on it fails that request. Long-lived upstream connections
  // also mean the proxy rarely opens new ones, which a drain would find waiting unaccepted when the port closes.
  if ("keepAliveTimeout" in server) {
    server.keepAliveTimeout = keepAliveTimeoutMilliseconds;
    server.headersTimeout = keepAliveTimeoutMilliseconds + 1_000;
  }

  const close = (signal: string) => {
    if (lifecycle.state === "draining") {
      return;
    }
    // Requests that arrive from now on are answered 503 without being run (the proxy sends them to another process,
    // docs/deploy.md); those running finish with `Connection: close`. The port stays open meanwhile: closing it resets
    // the connections the kernel has accepted but the process has not, with their request already sent, and a proxy
    // must not send a POST twice (1 to 3 502s per drain under 200 learners, decision 0027's revision).
    lifecycle.state = "draining";
    const retentionPruningStopped = retentionPruning.stop();
    const startedAt = performance.now();
    logger.info(`Received ${signal}; new requests are answered 503, finishing the requests in flight (at most ${drainDeadlineMilliseconds / 1000} s).`);
    let isClosingEverythingElse = false;
    const timers: { closeWhenSafe?: ReturnType<typeof setInterval> } = {};
    const closeEverythingElse = (outcome: string) => {
      if (isClosingEverythingElse) return;
      isClosingEverythingElse = true;
      clearInterval(timers.closeWhenSafe);
      if ("closeAllConnections" in server) server.closeAllConnections();
      Promise.all([
        // The database's close closes the large-session worker's connections first.
        retentionPruningStopped.then(() => openedDatabase.close()).then(closeLargeSessionWorker),
        closeSubtitleParseWorkers(),
        localOpenIdProvider?.close(),
      ]).then(
        () => {
          logger.info(`${outcome} in ${Math.round(performance.now() - startedAt)} ms; database and workers closed.`);
          flushLogs();
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, "Closing the database failed.");
          flushLogs();
          process.exit(1);
        },
      );
    };
    // Not http.Server#close: it closes idle keep-alive connections at once (Node ≥ 19), on which a proxy may be sending.
    // Once the port is closed nothing new can come: the remaining idle connections go with everything else.
    const closePort = () => netServerClose.call(server, () => undefined);
    // In development no proxy stands in front and `tsx watch` restarts on every save: stop at once.
    if (configuration.environment === "development" && lifecycle.requestsInProgress === 0) {
      closePort();
      closeEverythingElse("Stopped");
      return;
    }
    const isSafeToClose = () => {
      if (lifecycle.requestsInProgress > 0) return false;
      const now = performance.now();
      const sinceDrainingAnswer = lifecycle.lastDrainingAnswerAt === null ? null : now - lifecycle.lastDrainingAnswerAt;
      const proxyStaysAway = sinceDrainingAnswer !== null && sinceDrainingAnswer >= closeAfterDrainingAnswerMilliseconds.earliest && sinceDrainingAnswer <= closeAfterDrainingAnswerMilliseconds.latest;
      const quiet = now - Math.max(startedAt, lifecycle.lastRequestWhileDrainingAt ?? 0) >= quietBeforeClosingMilliseconds;
      return proxyStaysAway || quiet;
    };
    timers.closeWhenSafe = setInterval(() => {
      if (!isSafeToClose()) return;
      // Timers run before the event loop reads its sockets: a request the proxy sent before it left this process alone
      // may be waiting there unread, and closing now would fail it (a 502 for a POST). Decided again after that read.
      setImmediate(() => {
        if (isClosingEverythingElse || !isSafeToClose()) return;
        closePort();
        closeEverythingElse("Drained");
      });
    }, 25);
    // A request still running at the deadline is cut off: the process must end for the service manager.
    const deadline = setTimeout(() => {
      if (lifecycle.requestsInProgress > 0) logger.warn(`Requests were still running ${drainDeadlineMilliseconds / 1000} s after ${signal}; their connections are closed.`);
      closePort();
      closeEverythingElse(lifecycle.requestsInProgress > 0 ? "Drain cut off" : "Drained at the deadline");
    }, drainDeadlineMilliseconds);
    deadline.unref();
  };
  process.on("SIGINT", () => close("SIGINT"));
  process.on("SIGTERM", () => close("SIGTERM"));
}

main().catch((error: unknown) => {
  flushLogs();
  console.error("The server could not start.", error);
  process.exit(1);
});
