import { createAccountRoutes } from "./account/account-routes.ts";
import { createSecurityEventLog } from "./account/security-events.ts";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { createAccountDataRoutes } from "./account/account-export.ts";
import { createBillingModule, devBillingErrorPage, type BillingProvider } from "./billing/index.ts";
import { createAltchaCaptcha } from "./captcha/altcha-captcha.ts";
import type { Captcha, CaptchaPublicSettings } from "./captcha/captcha.ts";
import { createCaptchaRoutes } from "./captcha/captcha-routes.ts";
import { createRecaptchaCaptcha } from "./captcha/recaptcha-captcha.ts";
import { systemClock, type Clock } from "./clock.ts";
import type { AnalyticsConfiguration, Configuration } from "./config.ts";
import { createContactRoutes } from "./contact/contact-routes.ts";
import type { AtelierDatabase } from "./database/open-database.ts";
import { createErrorHandler } from "./http/error-responses.ts";
import { HttpError } from "./http/http-errors.ts";
import { createRequestBodyLimits } from "./http/request-body-limits.ts";
import {
  createCsrfMiddleware,
  createIdentityContextMiddleware,
  createIdentityRoutes,
  createIdentityService,
  createProviderCallbackRoutes,
  type IdentityVariables,
  type UserLoggedInEvent,
} from "./identity/index.ts";
import type { Mailer } from "./mail/mailer.ts";
import { createOutboxMailer } from "./mail/outbox-mailer.ts";
import { createOutboxRoutes } from "./mail/outbox-routes.ts";
import { createSmtpMailer } from "./mail/smtp-mailer.ts";
import { createThisMachineOnlyMiddleware } from "./http/this-machine-only.ts";
import { createRateLimiter } from "./rate-limit/rate-limiter.ts";
import { createSecurityHeadersMiddleware, securityHeadersWithoutInlineScripts, type SecurityHeadersVariables } from "./security/security-headers.ts";
import type { NodeFront } from "./http/node-front.ts";
import { createIdentityFrontRoutes } from "./identity/identity-front.ts";
import { createDrainingMiddleware, createHealthRoutes, healthCheckPaths, createServerLifecycle, type ServerLifecycle } from "./operations/index.ts";
import { createSiteRoutes } from "./site/site-routes.ts";
import { createRatingFrontRoute, createStudyCallLimiter, createStudyRoutes, createUploadBodyLimit, mergeRequestLearnerIntoAccount, warmUpLargeSessionWorker, warmUpSubtitleParseWorker } from "./study/index.ts";
import { createRequestLogMiddleware } from "./logging/logger.ts";
import { logger } from "./logging/logger.ts";

/** Path prefixes that belong to APIs: unknown paths below them answer a JSON 404, never the site's 404 page. */
export const apiPathPrefixes = ["/messages", "/captcha", "/dev", "/api", "/_allauth", "/accounts", "/user", "/stripe"] as const;

export { healthCheckPaths };

function isApiPath(path: string): boolean {
  return path === "/site-config" || (healthCheckPaths as readonly string[]).includes(path) || apiPathPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export type SiteConfig = {
  captcha: CaptchaPublicSettings;
  analytics: AnalyticsConfiguration | null;
};

export type CreateServerOptions = {
  configuration: Configuration;
  /** A migrated database (see `openDatabase` and `migrateToLatest`). */
  database: AtelierDatabase;
  /** Defaults to SMTP when `configuration.smtpUrl` is set, else the development outbox. */
  mailer?: Mailer;
  /** Defaults to the provider named in `configuration.captcha`. */
  captcha?: Captcha;
  clock?: Clock;
  /** Used by the reCAPTCHA verifier; defaults to the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  clientOnlyRoutePatterns?: readonly string[];
  /** Runs after every completed sign-in (for example to merge anonymous study progress); failures are logged only. */
  onUserLoggedIn?: (event: UserLoggedInEvent) => void | Promise<void>;
  /** Replaces the billing provider named in `configuration.billing` (tests). */
  billingProvider?: BillingProvider;
  /** Replaces `fetch` for calls to third-party sign-in providers (tests of presets whose servers are out of reach). */
  providerFetch?: typeof globalThis.fetch;
  /** Shared with `main.ts`, which drains it on SIGTERM; a lifecycle that stays "serving" by default. */
  lifecycle?: ServerLifecycle;
};

/** Paths whose unsafe requests are not CSRF-checked: app clients use a header token, webhooks are signed. */
export const csrfExemptPathPrefixes = ["/_allauth/app/", "/stripe/webhook"] as const;

export type ServerVariables = SecurityHeadersVariables & IdentityVariables;

/**
 * The application: Hono's app (`app.request()` in tests, `app.fetch`) and the node front that answers the hottest calls
 * before Hono when the app is served over node:http (`serveAtelier`, decision 0040).
 */
export type AtelierApp = Hono<{ Variables: ServerVariables }> & { readonly nodeFront: NodeFront };

/**
 * Builds the whole HTTP application: APIs first, then the web site. No port is opened; tests call `app.request()`.
 *
 * @example
 * const app = createServer({ configuration: loadConfiguration(process.env), database });
 * const response = await app.request("/site-config");
 */
export function createServer(options: CreateServerOptions): AtelierApp {
  const { configuration, database } = options;
  const clock = options.clock ?? systemClock;
  const lifecycle = options.lifecycle ?? createServerLifecycle();
  const mailer = options.mailer ?? createDefaultMailer(configuration, database, clock);
  const captcha = options.captcha ?? createDefaultCaptcha(configuration, database, clock, options.fetch ?? globalThis.fetch);
  const siteConfig: SiteConfig = { captcha: captcha.publicSettings, analytics: configuration.analytics };

  const securityEvents = createSecurityEventLog({ database, mailer, clock });
  const secureCookies = configuration.publicOrigin.startsWith("https:");
  // Every way of signing in keeps the study progress made before it (spec §7), in the sign-in's own answer.
  const onUserLoggedIn = async (event: UserLoggedInEvent) => {
    await mergeRequestLearnerIntoAccount({ database, clock, learnerCookies: { secure: secureCookies, signingKey: configuration.secretKey } }, event.context, event.user.id);
    await options.onUserLoggedIn?.(event);
  };
  const identity = createIdentityService({ configuration, database, mailer, clock, onUserLoggedIn, onSecurityEvent: securityEvents.record, providerFetch: options.providerFetch });

  const app = new Hono<{ Variables: ServerVariables }>();
  // While the database is away every request fails the same way: one line per outage, not one per request.
  let databaseUnavailableWarnedAt = Number.NEGATIVE_INFINITY;
  const warnDatabaseUnavailable = (error: unknown) => {
    if (clock().getTime() - databaseUnavailableWarnedAt < 10_000) return;
    databaseUnavailableWarnedAt = clock().getTime();
    logger.warn(`The database is unavailable; answering 503 until it is back (${error instanceof Error ? error.message : String(error)}).`);
  };


  app.use(createRequestLogMiddleware());
  app.use(createSecurityHeadersMiddleware(configuration));
  app.use(createDrainingMiddleware(lifecycle));
  // Before the session and CSRF middleware: a health check reads no cookie and touches the database at most once.
  app.route("/", createHealthRoutes({ database, lifecycle }));
  // Only the site is compressed: API answers are a few hundred bytes of JSON, which Hono's compress would otherwise
  // gzip as a chunked stream (their length is unknown to it), costing more than it saves.
  const compressSite = compress();
  app.use(async (c, next) => (isApiPath(c.req.path) ? next() : compressSite(c, next)));
  // Body limits run before the CSRF check, which may read a form body itself; the upload keeps its own larger limit.
  app.use(createRequestBodyLimits());
  app.use("/api/upload-subtitles/*", createUploadBodyLimit());
    app.use(createCsrfMiddleware({ publicOrigin: configuration.publicOrigin, exemptPathPrefixes: csrfExemptPathPrefixes }));
  app.use(createIdentityContextMiddleware(identity));

  app.get("/site-config", (c) => {
    c.header("Cache-Control", "no-cache");
    return c.json(siteConfig);
  });
  app.route("/captcha", createCaptchaRoutes({ captcha }));
  app.route(
    "/messages",
    createContactRoutes({
      configuration,
      database,
      mailer,
      captcha,
      rateLimiter: createRateLimiter({ database, scope: "contact", limit: configuration.contactRateLimit, clock }),
      clock,
    }),
  );
  app.route("/_allauth/browser/v1", createIdentityRoutes(identity, "browser"));
  app.route("/_allauth/app/v1", createIdentityRoutes(identity, "app"));
  app.route("/accounts", createProviderCallbackRoutes(identity));
  const billing = createBillingModule({
    billing: configuration.billing,
    database,
    publicOrigin: configuration.publicOrigin,
    clock,
    provider: options.billingProvider,
    // The dev provider delivers its signed webhooks to this very app, through the same route Stripe uses.
    deliverWebhook: async (payload, signatureHeader) => {
      const response = await app.request("/stripe/webhook", { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": signatureHeader } });
      return response.status;
    },
  });
  app.route("/api/account", createAccountDataRoutes({ database, clock }));
  app.route(
    "/api",
    createAccountRoutes({
      securityEvents,
      database,
      mailer,
      secureCookies,
      cancelSubscriptions: (userId) => billing.service.cancelEverySubscriptionNow(userId),
    }),
  );
  const studyCallLimiter = createStudyCallLimiter({ database, clock, rateLimit: configuration.studyRateLimit });
  app.route(
    "/api",
    createStudyRoutes({
      database,
      clock,
      secureCookies,
      learnerCookieSigningKey: configuration.secretKey,
      studyCallLimiter,
      largeSessionRateLimit: configuration.studyLargeSessionRateLimit,
      newLearnerRateLimit: configuration.studyNewLearnerRateLimit,
      trustProxy: configuration.trustProxy,
      entitlementsOfUser: async (userId) => {
        const status = await billing.service.subscriptionStatus(userId);
        return { planName: status.plan, ...status.entitlements };
      },
    }),
  );
  app.route("/", billing.routes);
  app.use("/dev/*", createThisMachineOnlyMiddleware());
  const devBillingPagesMounted = billing.devPages !== null && configuration.environment !== "production";
  if (billing.devPages && devBillingPagesMounted) {
    app.route("/dev/billing", billing.devPages);
  }
  // Registered last so it knows whether the development billing pages (whose errors are pages) are here.
  const errorHandlerOptions = { onDatabaseUnavailable: warnDatabaseUnavailable };
  app.onError(
    createErrorHandler({
      ...errorHandlerOptions,
      ...(devBillingPagesMounted ? { renderPage: (error: HttpError) => devBillingErrorPage(error, configuration.publicOrigin) } : {}),
    }),
  );
  if (configuration.environment !== "test") {
    // The first upload would otherwise pay the parse worker's start-up (~0.5 s), and the first large session its own.
    warmUpSubtitleParseWorker();
    warmUpLargeSessionWorker();
  }
  if (configuration.environment !== "production") {
    app.route("/dev/outbox", createOutboxRoutes({ database }));
  }

  for (const prefix of apiPathPrefixes) {
    app.all(`${prefix}/*`, (c) => {
      throw new HttpError(404, `There is no API endpoint ${c.req.method} ${c.req.path}.`);
    });
  }
  app.notFound((c) => c.json({ message: `There is nothing to ${c.req.method} at ${c.req.path}.` }, 404));

  app.route("/", createSiteRoutes({ webBuildDirectory: configuration.webBuildDirectory, clientOnlyRoutePatterns: options.clientOnlyRoutePatterns, rereadBuild: configuration.environment !== "production", publicOrigin: configuration.publicOrigin }));

  const nodeFront: NodeFront = {
    routes: createIdentityFrontRoutes(identity, { trustProxy: configuration.trustProxy, database }),
    postRoutes: [createRatingFrontRoute({ identity, database, clock, studyCallLimiter, publicOrigin: configuration.publicOrigin, learnerCookieSigningKey: configuration.secretKey, errorHandlerOptions })],
    lifecycle,
    securityHeaders: securityHeadersWithoutInlineScripts(configuration),
    log: logger,
  };
  return Object.assign(app, { nodeFront });
}

function createDefaultMailer(configuration: Configuration, database: AtelierDatabase, clock: Clock): Mailer {
  if (configuration.smtpUrl) {
    return createSmtpMailer({ smtpUrl: configuration.smtpUrl, mailFrom: configuration.mailFrom });
  }
  return createOutboxMailer({ database, mailFrom: configuration.mailFrom, clock });
}

function createDefaultCaptcha(configuration: Configuration, database: AtelierDatabase, clock: Clock, fetch: typeof globalThis.fetch): Captcha {
  const captchaConfiguration = configuration.captcha;
  switch (captchaConfiguration.provider) {
    case "altcha":
      return createAltchaCaptcha({ database, secretKey: configuration.secretKey, maximumNumber: captchaConfiguration.maximumNumber, clock });
    case "recaptcha":
      return createRecaptchaCaptcha({ siteKey: captchaConfiguration.siteKey, secretKey: captchaConfiguration.secretKey, fetch });
    default:
      return captchaConfiguration satisfies never;
  }
}
