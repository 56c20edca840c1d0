import type { IncomingMessage, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { serve } from "@hono/node-server";
import { ConfigurationError, loadConfiguration } from "./config.ts";
import { createServer } from "./create-server.ts";
import { migrateToLatest } from "./database/migrations.ts";
import { describeDatabaseStartupFailure } from "./database/database-errors.ts";
import { openDatabase, type OpenedDatabase } from "./database/open-database.ts";
import { closeSubtitleParseWorkers } from "@atelier/subtitles/node";
import { createServerLifecycle } from "./operations/index.ts";
import { addLocalOpenIdProvider, localOpenIdRedirectUriOf, startLocalOpenIdProvider, type LocalOpenIdProvider } from "./identity/index.ts";

/** How long SIGTERM waits for the requests in flight before closing their connections. */
const drainDeadlineMilliseconds = 10_000;
const netServerClose = NetServer.prototype.close;
const keepAliveTimeoutMilliseconds = 65_000;
/** During a drain, a keep-alive connection idle this long is closed. */
const drainIdleConnectionAfterMilliseconds = 2_000;

/** When each connection last finished a request, and whether one is in progress. */
function trackConnectionActivity(server: ReturnType<typeof serve>): { closeIdleSince: (moment: number) => void } {
  const idleSince = new Map<Socket, number>();
  const busy = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    idleSince.set(socket, performance.now());
    socket.once("close", () => {
      idleSince.delete(socket);
      busy.delete(socket);
    });
  });
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    busy.add(request.socket);
    response.once("close", () => {
      busy.delete(request.socket);
      idleSince.set(request.socket, performance.now());
    });
  });
  return {
    closeIdleSince: (moment) => {
      for (const [socket, since] of idleSince) if (!busy.has(socket) && since < moment) socket.destroy();
    },
  };
}

async function main(): Promise<void> {
  let configuration;
  try {
    configuration = loadConfiguration(process.env);
  } catch (error) {
    if (error instanceof ConfigurationError) {
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
    console.error(problem);
    process.exit(1);
  }
  console.info(`Database: ${openedDatabase.engine} at ${openedDatabase.location}`);
  console.info(`Mail: ${configuration.smtpUrl ? "SMTP" : "development outbox at /dev/outbox/view"}; captcha: ${configuration.captcha.provider}`);
  const identity = configuration.identity;
  console.info(
    `Accounts: e-mail verification ${identity.emailVerification} by ${identity.emailVerificationByCodeEnabled ? "code" : "link"}, sign-in by code ${identity.loginByCodeEnabled ? "on" : "off"}, password reset by ${identity.passwordResetByCodeEnabled ? "code" : "link"}; CSRF origin ${configuration.publicOrigin}`,
  );

  let localOpenIdProvider: LocalOpenIdProvider | null = null;
  if (configuration.localOpenIdProvider) {
    try {
      localOpenIdProvider = await startLocalOpenIdProvider({ port: configuration.localOpenIdProvider.port, redirectUris: [localOpenIdRedirectUriOf(configuration.publicOrigin)] });
    } catch (error) {
      const reason = (error as { code?: string }).code === "EADDRINUSE" ? `port ${configuration.localOpenIdProvider.port} is taken` : String(error);
      console.error(`The local OpenID provider could not start: ${reason}. Set LOCAL_OIDC_PORT to a free port (0 picks one), or LOCAL_OIDC_PROVIDER=false.`);
      process.exit(1);
    }
    configuration = addLocalOpenIdProvider(configuration, localOpenIdProvider);
  }
  const providerNames = configuration.identity.socialProviders.map((provider) => (provider.id === "local" ? `${provider.name} at ${localOpenIdProvider?.issuer}` : provider.name));
  console.info(`Third-party sign-in: ${providerNames.length > 0 ? providerNames.join(", ") : "none configured"}`);

  const lifecycle = createServerLifecycle();
  const app = createServer({ configuration, database: openedDatabase.database, lifecycle });
  const server = serve({ fetch: app.fetch, port: configuration.port, hostname: configuration.host }, () => {
    console.info(`Atelier is running at http://localhost:${configuration.port}`);
  });
  // Longer than a proxy keeps an idle upstream connection (nginx: 60 s), so the proxy, not this process, closes idle
  // ones: a connection closed here while the proxy sends on it fails that request. Long-lived upstream connections
  // also mean the proxy rarely opens new ones, which a drain would find waiting unaccepted when the port closes.
  if ("keepAliveTimeout" in server) {
    server.keepAliveTimeout = keepAliveTimeoutMilliseconds;
    server.headersTimeout = keepAliveTimeoutMilliseconds + 1_000;
  }
  const connections = trackConnectionActivity(server);

  const close = (signal: string) => {
    if (lifecycle.state === "draining") {
      return;
    }
    // The port closes first, in this very callback: a proxy's next connection is refused and goes to another process
    // before it sends anything. Answers with `Connection: close` (below) make the proxy open new connections, and one
    // that the kernel accepted before a later close would be reset with its request sent: a POST the proxy must not
    // retry, so a 502 (seen with the close one event-loop turn later: 1 to 3 per drain under 200 learners).
    // Not http.Server#close: it also closes idle keep-alive connections (Node ≥ 19), on which a proxy may be sending
    // a request at that very moment. The proxy's next request on one is answered with `Connection: close`; those it
    // leaves idle are closed once idle 2 s, or at the deadline.
    netServerClose.call(server, () => {
      clearTimeout(deadline);
      closeEverythingElse("Drained");
    });
    lifecycle.state = "draining";
    const startedAt = performance.now();
    console.info(`Received ${signal}; no new connections, finishing the requests in flight (at most ${drainDeadlineMilliseconds / 1000} s).`);
    let isClosingEverythingElse = false;
    const closeEverythingElse = (outcome: string) => {
      if (isClosingEverythingElse) return;
      isClosingEverythingElse = true;
      Promise.all([openedDatabase.close(), closeSubtitleParseWorkers(), localOpenIdProvider?.close()]).then(
        () => {
          console.info(`${outcome} in ${Math.round(performance.now() - startedAt)} ms; database and workers closed.`);
          process.exit(0);
        },
        (error: unknown) => {
          console.error("Closing the database failed.", error);
          process.exit(1);
        },
      );
    };
    // A proxy uses its most recently used connection first: one idle for a while is the one it is least likely to be
    // sending on, so those close during the drain, and the process need not wait for the deadline.
    const closeLongIdle = setInterval(() => connections.closeIdleSince(performance.now() - drainIdleConnectionAfterMilliseconds), 250);
    closeLongIdle.unref();
    // A request still running at the deadline is cut off: the process must end for the service manager.
    const deadline = setTimeout(() => {
      console.warn(`Requests were still running ${drainDeadlineMilliseconds / 1000} s after ${signal}; their connections are closed.`);
      if ("closeAllConnections" in server) server.closeAllConnections();
      closeEverythingElse("Drain cut off");
    }, drainDeadlineMilliseconds);
    deadline.unref();
  };
  process.on("SIGINT", () => close("SIGINT"));
  process.on("SIGTERM", () => close("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error("The server could not start.", error);
  process.exit(1);
});
