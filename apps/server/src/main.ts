import { serve } from "@hono/node-server";
import { ConfigurationError, loadConfiguration } from "./config.ts";
import { createServer } from "./create-server.ts";
import { migrateToLatest } from "./database/migrations.ts";
import { describeDatabaseStartupFailure } from "./database/database-errors.ts";
import { openDatabase, type OpenedDatabase } from "./database/open-database.ts";
import { addLocalOpenIdProvider, localOpenIdRedirectUriOf, startLocalOpenIdProvider, type LocalOpenIdProvider } from "./identity/index.ts";

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

  const app = createServer({ configuration, database: openedDatabase.database });
  const server = serve({ fetch: app.fetch, port: configuration.port, hostname: configuration.host }, () => {
    console.info(`Atelier is running at http://localhost:${configuration.port}`);
  });

  let isClosing = false;
  const close = (signal: string) => {
    if (isClosing) {
      return;
    }
    isClosing = true;
    console.info(`Received ${signal}; closing.`);
    // Keep-alive connections would hold server.close() open; a deadline makes sure the process ends.
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    server.close(() => {
      Promise.all([openedDatabase.close(), localOpenIdProvider?.close()]).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error("Closing the database failed.", error);
          process.exit(1);
        },
      );
    });
    if ("closeIdleConnections" in server) {
      server.closeIdleConnections();
    }
  };
  process.on("SIGINT", () => close("SIGINT"));
  process.on("SIGTERM", () => close("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error("The server could not start.", error);
  process.exit(1);
});
