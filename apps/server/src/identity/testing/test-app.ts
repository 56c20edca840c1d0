import os from "node:os";
import path from "node:path";
import { loadConfiguration, type Configuration } from "../../config.ts";
import { createServer, type CreateServerOptions } from "../../create-server.ts";
import type { TestDatabase } from "../../database/test-databases.ts";
import type { Clock } from "../../clock.ts";
import { createOutboxMailer } from "../../mail/outbox-mailer.ts";
import { testOrigin } from "./identity-test-client.ts";

let mailSequence = 0;
/** Mails get strictly increasing times even under a frozen test clock, so "the last mail" is well defined. */
const mailClock: Clock = () => new Date(Date.UTC(2030, 0, 1) + (mailSequence += 1));

/** A server for identity tests: trusted `X-Forwarded-For` (one address per simulated client), outbox mail. */
export function createIdentityTestApp(
  testDatabase: TestDatabase,
  options: {
    environment?: Record<string, string>;
    clock?: Clock;
    onUserLoggedIn?: CreateServerOptions["onUserLoggedIn"];
    /** Changes the loaded configuration, e.g. to add the started local OpenID provider. */
    configure?: (configuration: Configuration) => Configuration;
    providerFetch?: typeof globalThis.fetch;
  } = {},
) {
  const loaded = loadConfiguration({
    NODE_ENV: "test",
    PUBLIC_ORIGIN: testOrigin,
    TRUST_PROXY: "true",
    WEB_BUILD_DIR: path.join(os.tmpdir(), "atelier-no-web-build"),
    ...options.environment,
  });
  const configuration = options.configure ? options.configure(loaded) : loaded;
  const mailer = createOutboxMailer({ database: testDatabase.database, mailFrom: configuration.mailFrom, clock: mailClock });
  return createServer({ configuration, database: testDatabase.database, mailer, clock: options.clock, onUserLoggedIn: options.onUserLoggedIn, providerFetch: options.providerFetch });
}
