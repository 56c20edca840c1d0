import path from "node:path";
import { fileURLToPath } from "node:url";
import * as v from "valibot";
import { planPriceKeys } from "./billing/plans.ts";

/** The folder of this package (`apps/server`), used to resolve default paths. */
const serverPackageDirectory = fileURLToPath(new URL("..", import.meta.url));

export const developmentSecretKey = "atelier-development-secret-key-never-use-in-production";
export const minimumProductionSecretKeyLength = 32;

export type EnvironmentName = "development" | "test" | "production";

export type CaptchaConfiguration =
  | { provider: "altcha"; maximumNumber: number }
  | { provider: "recaptcha"; siteKey: string; secretKey: string };

export type AnalyticsConfiguration = { scriptUrl: string; domain: string };

export type RateLimitConfiguration = { maximumRequests: number; windowMilliseconds: number };

export type EmailVerificationMode = "mandatory" | "optional" | "none";

/** The identity service's settings; each one is reflected in `GET /_allauth/browser/v1/config`. */
export type IdentityConfiguration = {
  loginByCodeEnabled: boolean;
  emailVerification: EmailVerificationMode;
  emailVerificationByCodeEnabled: boolean;
  passwordResetByCodeEnabled: boolean;
  trackUserSessionActivity: boolean;
  /** allauth's `ACCOUNT_REAUTHENTICATION_REQUIRED`: changing e-mail addresses needs a recent authentication. */
  reauthenticationRequired: boolean;
  /** allauth's `ACCOUNT_REAUTHENTICATION_TIMEOUT`, in seconds (default 300). */
  reauthenticationTimeoutSeconds: number;
  /** Second factors and passkeys (allauth's `MFA_*` settings); `GET /config` shows them as `mfa`. */
  mfa: MfaConfiguration;
  /**
   * Third-party sign-in (allauth's `SOCIALACCOUNT_PROVIDERS`), in `GET /config` as `socialaccount.providers`. The local
   * development provider joins this list once it listens (see `localOpenIdProvider`).
   */
  socialProviders: SocialProviderConfiguration[];
};

/**
 * One third-party provider: any OpenID Connect provider by issuer (Google is a preset of this), or GitHub, which is
 * OAuth 2 with its user API rather than OpenID Connect.
 */
export type SocialProviderConfiguration =
  | { kind: "openid_connect"; id: string; name: string; issuer: string; clientId: string; clientSecret: string }
  | { kind: "github"; id: "github"; name: "GitHub"; clientId: string; clientSecret: string };

/** The local OpenID provider the server starts on loopback in development and tests; `port` 0 picks a free one. */
export type LocalOpenIdProviderConfiguration = { port: number };

export const googleIssuer = "https://accounts.google.com";

/** Provider ids the presets and the local provider use; a generic provider must pick another. */
export const reservedSocialProviderIds = ["google", "github", "local"] as const;

export type AuthenticatorType = "recovery_codes" | "totp" | "webauthn";

export type MfaConfiguration = {
  /** allauth's `MFA_SUPPORTED_TYPES`, in the configured order. */
  supportedTypes: AuthenticatorType[];
  /** allauth's `MFA_PASSKEY_LOGIN_ENABLED` (only effective when `webauthn` is supported). */
  passkeyLoginEnabled: boolean;
  /** allauth's `MFA_PASSKEY_SIGNUP_ENABLED` (only effective when `webauthn` is supported). */
  passkeySignupEnabled: boolean;
  /**
   * allauth's `MFA_RECOVERY_CODES_SHOW_ONCE` (default false): when false the unused codes are shown on every visit
   * (kept encrypted with `SECRET_KEY`); when true, only once after they are made.
   */
  recoveryCodesShowOnce: boolean;
  /** WebAuthn relying party: id (a registrable domain, e.g. `localhost`), the origin browsers report, and its name. */
  relyingPartyId: string;
  relyingPartyOrigin: string;
  relyingPartyName: string;
};

/** The Stripe price id of every plan and interval, keyed `<plan key>_<interval>` (see `src/billing/plans.ts`). */
export type StripePriceIds = Record<string, string>;

/**
 * Who runs checkout and the billing portal: Stripe, or the development stand-in (local pages, no network).
 * `api` points the SDK at another server (tests only; production refuses it).
 */
export type BillingConfiguration =
  | { provider: "dev" }
  | {
      provider: "stripe";
      secretKey: string;
      webhookSecret: string;
      priceIds: StripePriceIds;
      api: { host: string; port: number; protocol: "http" | "https" } | null;
    };

/** The server's settings, read once from environment variables (see CONFIGURATION.md). */
export type Configuration = {
  environment: EnvironmentName;
  port: number;
  host: string;
  publicOrigin: string;
  dataDirectory: string;
  /** A `postgres://` URL, or `null` for SQLite in `dataDirectory`. */
  databaseUrl: string | null;
  webBuildDirectory: string;
  secretKey: string;
  /** An SMTP URL for nodemailer, or `null` for the development outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  contactRecipient: string;
  captcha: CaptchaConfiguration;
  analytics: AnalyticsConfiguration | null;
  contactRateLimit: RateLimitConfiguration;
  /** Unsafe study calls (ratings, marks, edits) per learner per window. */
  studyRateLimit: RateLimitConfiguration;
  /** Sessions of more than 1,000 cards per client address per window. */
  studyLargeSessionRateLimit: RateLimitConfiguration;
  studyNewLearnerRateLimit: RateLimitConfiguration;
  trustProxy: boolean;
  identity: IdentityConfiguration;
  billing: BillingConfiguration;
  /** `null` when off (always in production). */
  localOpenIdProvider: LocalOpenIdProviderConfiguration | null;
};

/**
 * The configuration is invalid; `problems` lists every problem as a sentence.
 *
 * @example
 * try { loadConfiguration(process.env) } catch (error) { if (error instanceof ConfigurationError) console.error(error.message) }
 */
export class ConfigurationError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`The server configuration is invalid:\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
    this.name = "ConfigurationError";
    this.problems = problems;
  }
}

const integerText = (name: string, minimum: number, maximum: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, `${name} must be a whole number.`),
    v.transform(Number),
    v.minValue(minimum, `${name} must be at least ${minimum}.`),
    v.maxValue(maximum, `${name} must be at most ${maximum}.`),
  );

const urlText = (name: string, example: string) => v.pipe(v.string(), v.url(`${name} must be a full URL such as ${example}.`));

const booleanText = (name: string) =>
  v.pipe(
    v.string(),
    v.picklist(["true", "false", "1", "0"], `${name} must be true or false.`),
    v.transform((text) => text === "true" || text === "1"),
  );

const rateLimitText = (name: string, example: string, what: string) => v.pipe(
  v.string(),
  v.regex(/^\d+\/\d+[smh]$/, `${name} must look like ${example}; units are s, m or h.`),
  v.transform((text): RateLimitConfiguration => {
    const [countText = "0", windowText = "0s"] = text.split("/");
    const unitMilliseconds = { s: 1_000, m: 60_000, h: 3_600_000 }[windowText.slice(-1) as "s" | "m" | "h"];
    return { maximumRequests: Number(countText), windowMilliseconds: Number(windowText.slice(0, -1)) * unitMilliseconds };
  }),
  v.check((limit) => limit.maximumRequests > 0 && limit.windowMilliseconds > 0, `${name} must allow at least one ${what} in a window longer than zero.`),
);

const stripePriceIdsText = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const problem = 'STRIPE_PRICE_IDS must be a JSON object of price ids such as {"basic_month":"price_…","basic_year":"price_…"}.';
    try {
      const parsed: unknown = JSON.parse(dataset.value);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((value) => typeof value === "string" && value !== "")) {
        return parsed as StripePriceIds;
      }
    } catch {
      // reported below
    }
    addIssue({ message: problem });
    return NEVER;
  }),
);

/** Every environment variable the server reads; empty values count as unset. */
const authenticatorTypes: readonly AuthenticatorType[] = ["recovery_codes", "totp", "webauthn"];

const environmentSchema = v.object({
  NODE_ENV: v.optional(v.picklist(["development", "test", "production"], "NODE_ENV must be development, test or production.")),
  PORT: v.optional(integerText("PORT", 1, 65_535), "3000"),
  HOST: v.optional(v.string()),
  PUBLIC_ORIGIN: v.optional(urlText("PUBLIC_ORIGIN", "https://atelier.example")),
  DATA_DIR: v.optional(v.string()),
  DATABASE_URL: v.optional(
    v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// (leave it unset to use SQLite in DATA_DIR).")),
  ),
  WEB_BUILD_DIR: v.optional(v.string()),
  SECRET_KEY: v.optional(v.string()),
  SMTP_URL: v.optional(v.pipe(v.string(), v.regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://."))),
  MAIL_FROM: v.optional(v.string()),
  CONTACT_RECIPIENT: v.optional(v.pipe(v.string(), v.email("CONTACT_RECIPIENT must be an e-mail address."))),
  CAPTCHA_PROVIDER: v.optional(v.picklist(["altcha", "recaptcha"], "CAPTCHA_PROVIDER must be altcha or recaptcha."), "altcha"),
  ALTCHA_MAX_NUMBER: v.optional(integerText("ALTCHA_MAX_NUMBER", 10, 10_000_000), "20000"),
  RECAPTCHA_SITE_KEY: v.optional(v.string()),
  RECAPTCHA_SECRET_KEY: v.optional(v.string()),
  ANALYTICS_SCRIPT_URL: v.optional(urlText("ANALYTICS_SCRIPT_URL", "https://plausible.io/js/script.js")),
  ANALYTICS_DOMAIN: v.optional(v.string()),
  CONTACT_RATE_LIMIT: v.optional(rateLimitText("CONTACT_RATE_LIMIT", "5/10m (at most 5 messages per 10 minutes)", "message"), "5/10m"),
  STUDY_RATE_LIMIT: v.optional(rateLimitText("STUDY_RATE_LIMIT", "600/1m (at most 600 ratings and other changes per learner per minute)", "call"), "600/1m"),
  STUDY_LARGE_SESSION_RATE_LIMIT: v.optional(rateLimitText("STUDY_LARGE_SESSION_RATE_LIMIT", "10/1m (at most 10 sessions of more than 1,000 cards per client address per minute)", "session"), "10/1m"),
  STUDY_NEW_LEARNER_RATE_LIMIT: v.optional(rateLimitText("STUDY_NEW_LEARNER_RATE_LIMIT", "60/10m (at most 60 study changes without a learner cookie per client address per 10 minutes)", "call"), "60/10m"),
  TRUST_PROXY: v.optional(booleanText("TRUST_PROXY"), "false"),
  ACCOUNT_LOGIN_BY_CODE_ENABLED: v.optional(booleanText("ACCOUNT_LOGIN_BY_CODE_ENABLED"), "true"),
  ACCOUNT_EMAIL_VERIFICATION: v.optional(
    v.picklist(["mandatory", "optional", "none"], "ACCOUNT_EMAIL_VERIFICATION must be mandatory, optional or none."),
    "mandatory",
  ),
  ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: v.optional(booleanText("ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED"), "true"),
  ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: v.optional(booleanText("ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED"), "false"),
  USERSESSIONS_TRACK_ACTIVITY: v.optional(booleanText("USERSESSIONS_TRACK_ACTIVITY"), "true"),
  ACCOUNT_REAUTHENTICATION_REQUIRED: v.optional(booleanText("ACCOUNT_REAUTHENTICATION_REQUIRED"), "true"),
  ACCOUNT_REAUTHENTICATION_TIMEOUT: v.optional(integerText("ACCOUNT_REAUTHENTICATION_TIMEOUT", 1, 86_400), "300"),
  MFA_SUPPORTED_TYPES: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => text.split(",").map((item) => item.trim()).filter((item) => item !== "")),
      v.check((items) => items.every((item) => authenticatorTypes.includes(item as AuthenticatorType)), "MFA_SUPPORTED_TYPES must be a comma-separated list of totp, recovery_codes and webauthn."),
      v.check((items) => new Set(items).size === items.length, "MFA_SUPPORTED_TYPES must not name a type twice."),
      v.check((items) => !(items.length === 1 && items[0] === "recovery_codes"), "MFA_SUPPORTED_TYPES cannot be recovery_codes alone: recovery codes back up another factor."),
      v.transform((items) => items as AuthenticatorType[]),
    ),
    "totp,recovery_codes,webauthn",
  ),
  MFA_PASSKEY_LOGIN_ENABLED: v.optional(booleanText("MFA_PASSKEY_LOGIN_ENABLED"), "true"),
  MFA_PASSKEY_SIGNUP_ENABLED: v.optional(booleanText("MFA_PASSKEY_SIGNUP_ENABLED"), "true"),
  MFA_RECOVERY_CODES_SHOW_ONCE: v.optional(booleanText("MFA_RECOVERY_CODES_SHOW_ONCE"), "false"),
  WEBAUTHN_RP_ID: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9.-]+$/i, "WEBAUTHN_RP_ID must be a host name such as atelier.example (no scheme, no port)."))),
  WEBAUTHN_RP_ORIGIN: v.optional(urlText("WEBAUTHN_RP_ORIGIN", "https://atelier.example")),
  BILLING_PROVIDER: v.optional(v.picklist(["dev", "stripe"], "BILLING_PROVIDER must be dev or stripe.")),
  STRIPE_SECRET_KEY: v.optional(v.pipe(v.string(), v.regex(/^(sk|rk)_(test|live)_/, "STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_… or a restricted rk_… key)."))),
  STRIPE_WEBHOOK_SECRET: v.optional(v.pipe(v.string(), v.startsWith("whsec_", "STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_…)."))),
  STRIPE_PRICE_IDS: v.optional(stripePriceIdsText),
  STRIPE_API_HOST: v.optional(v.string()),
  STRIPE_API_PORT: v.optional(integerText("STRIPE_API_PORT", 1, 65_535)),
  STRIPE_API_PROTOCOL: v.optional(v.picklist(["http", "https"], "STRIPE_API_PROTOCOL must be http or https.")),
  GOOGLE_CLIENT_ID: v.optional(v.string()),
  GOOGLE_CLIENT_SECRET: v.optional(v.string()),
  GITHUB_CLIENT_ID: v.optional(v.string()),
  GITHUB_CLIENT_SECRET: v.optional(v.string()),
  OIDC_PROVIDER_ID: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "OIDC_PROVIDER_ID must be a short lowercase id such as keycloak (letters, digits and dashes)."))),
  OIDC_PROVIDER_NAME: v.optional(v.string()),
  OIDC_ISSUER: v.optional(urlText("OIDC_ISSUER", "https://id.example.org/realms/atelier")),
  OIDC_CLIENT_ID: v.optional(v.string()),
  OIDC_CLIENT_SECRET: v.optional(v.string()),
  LOCAL_OIDC_PROVIDER: v.optional(booleanText("LOCAL_OIDC_PROVIDER")),
  LOCAL_OIDC_PORT: v.optional(integerText("LOCAL_OIDC_PORT", 0, 65_535), "0"),
});

type ParsedEnvironment = Omit<v.InferOutput<typeof environmentSchema>, "NODE_ENV"> & { NODE_ENV: EnvironmentName };

/**
 * Whether a host name is reached only from this machine: `localhost`, `*.localhost`, 127.0.0.0/8 and `[::1]`.
 *
 * @example
 * isLoopbackHostName(new URL("http://127.0.0.1:3000").hostname) // true
 */
export function isLoopbackHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * The environment the server runs in. Unset, it follows PUBLIC_ORIGIN: a public origin is production, so a careless
 * start on a public host never serves the development stand-ins (decision 0023).
 */
function environmentNameOf(parsed: v.InferOutput<typeof environmentSchema>): EnvironmentName {
  if (parsed.NODE_ENV) return parsed.NODE_ENV;
  return publicOriginIsLocal(parsed.PUBLIC_ORIGIN) ? "development" : "production";
}

function publicOriginIsLocal(publicOrigin: string | undefined): boolean {
  return publicOrigin === undefined || isLoopbackHostName(new URL(publicOrigin).hostname);
}

/**
 * Reads and checks the configuration from environment variables.
 * Throws a `ConfigurationError` naming every problem; in production it refuses development stand-ins.
 *
 * @example
 * const configuration = loadConfiguration(process.env);
 */
export function loadConfiguration(environment: Record<string, string | undefined>): Configuration {
  const setVariables = Object.fromEntries(
    Object.entries(environment).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1].trim() !== "").map(([name, value]) => [name, value.trim()]),
  );
  const result = v.safeParse(environmentSchema, setVariables, { abortPipeEarly: true });
  if (!result.success) {
    throw new ConfigurationError(result.issues.map((issue) => issue.message));
  }
  const parsed: ParsedEnvironment = { ...result.output, NODE_ENV: environmentNameOf(result.output) };
  const problems = findConsistencyProblems(parsed);
  if (problems.length > 0) {
    throw new ConfigurationError(problems);
  }
  return toConfiguration(parsed);
}

function findConsistencyProblems(parsed: ParsedEnvironment): string[] {
  const problems: string[] = [];
  const isProduction = parsed.NODE_ENV === "production";
  if (parsed.CAPTCHA_PROVIDER === "recaptcha" && (!parsed.RECAPTCHA_SITE_KEY || !parsed.RECAPTCHA_SECRET_KEY)) {
    problems.push("CAPTCHA_PROVIDER is recaptcha, so set both RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY (or use CAPTCHA_PROVIDER=altcha, which needs no keys).");
  }
  if (Boolean(parsed.ANALYTICS_SCRIPT_URL) !== Boolean(parsed.ANALYTICS_DOMAIN)) {
    problems.push("Set both ANALYTICS_SCRIPT_URL and ANALYTICS_DOMAIN to turn analytics on, or neither to keep it off.");
  }
  problems.push(...findBillingProblems(parsed));
  problems.push(...findSocialProviderProblems(parsed));
  if (!isProduction && !publicOriginIsLocal(parsed.PUBLIC_ORIGIN)) {
    problems.push(
      `PUBLIC_ORIGIN ${parsed.PUBLIC_ORIGIN} is reachable from other machines, but NODE_ENV is ${parsed.NODE_ENV}: the development stand-ins (the mail outbox, the billing pages that hand out plans, the local OpenID provider, the built-in SECRET_KEY) would give anyone's account to anyone. Leave NODE_ENV unset or set it to production, and give the production settings; or use a localhost PUBLIC_ORIGIN to develop.`,
    );
  }
  if (!isProduction) {
    return problems;
  }
  if (!parsed.SECRET_KEY) {
    problems.push(`SECRET_KEY is missing; production needs a random secret of at least ${minimumProductionSecretKeyLength} characters (for example: openssl rand -base64 48).`);
  } else if (parsed.SECRET_KEY === developmentSecretKey) {
    problems.push("SECRET_KEY is the development default; production needs its own random secret (for example: openssl rand -base64 48).");
  } else if (parsed.SECRET_KEY.length < minimumProductionSecretKeyLength) {
    problems.push(`SECRET_KEY is too short; production needs at least ${minimumProductionSecretKeyLength} characters.`);
  }
  if (!parsed.SMTP_URL) {
    problems.push("SMTP_URL is missing, so mail would go to the development outbox; production needs a real SMTP server (smtp://user:password@host:587).");
  }
  if (!parsed.CONTACT_RECIPIENT) {
    problems.push("CONTACT_RECIPIENT is missing; production needs the painter's e-mail address to deliver contact messages.");
  }
  if (!parsed.MAIL_FROM) {
    problems.push("MAIL_FROM is missing; production needs a sender address your SMTP server may send from.");
  }
  if (!parsed.PUBLIC_ORIGIN) {
    problems.push("PUBLIC_ORIGIN is missing; production needs the public address of the site, such as https://atelier.example.");
  }
  if (billingProviderOf(parsed) === "dev") {
    problems.push(
      "BILLING_PROVIDER is dev (the default without STRIPE_SECRET_KEY), so checkout would be the local development pages that hand out plans without payment; production needs BILLING_PROVIDER=stripe with STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_IDS.",
    );
  }
  if (parsed.STRIPE_API_HOST || parsed.STRIPE_API_PORT !== undefined || parsed.STRIPE_API_PROTOCOL) {
    problems.push("STRIPE_API_HOST, STRIPE_API_PORT and STRIPE_API_PROTOCOL point the Stripe SDK at a test server; production must talk to Stripe itself, so leave them unset.");
  }
  if (parsed.LOCAL_OIDC_PROVIDER === true) {
    problems.push("LOCAL_OIDC_PROVIDER is true, but the local OpenID provider signs in anyone as anyone; production must use real providers (GOOGLE_*, GITHUB_* or OIDC_*), so leave it unset.");
  }
  if (parsed.OIDC_ISSUER && !parsed.OIDC_ISSUER.startsWith("https:")) {
    problems.push("OIDC_ISSUER must be an https:// address in production.");
  }
  return problems;
}

function findSocialProviderProblems(parsed: ParsedEnvironment): string[] {
  const problems: string[] = [];
  for (const [label, clientId, clientSecret] of [
    ["GOOGLE", parsed.GOOGLE_CLIENT_ID, parsed.GOOGLE_CLIENT_SECRET],
    ["GITHUB", parsed.GITHUB_CLIENT_ID, parsed.GITHUB_CLIENT_SECRET],
  ] as const) {
    if (Boolean(clientId) !== Boolean(clientSecret)) {
      problems.push(`Set both ${label}_CLIENT_ID and ${label}_CLIENT_SECRET to offer sign-in with ${label === "GOOGLE" ? "Google" : "GitHub"}, or neither.`);
    }
  }
  const genericValues = [parsed.OIDC_PROVIDER_ID, parsed.OIDC_PROVIDER_NAME, parsed.OIDC_ISSUER, parsed.OIDC_CLIENT_ID, parsed.OIDC_CLIENT_SECRET];
  if (genericValues.some(Boolean) && !genericValues.every(Boolean)) {
    problems.push("An OpenID Connect provider needs all of OIDC_PROVIDER_ID, OIDC_PROVIDER_NAME, OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none of them.");
  }
  if (parsed.OIDC_PROVIDER_ID && (reservedSocialProviderIds as readonly string[]).includes(parsed.OIDC_PROVIDER_ID)) {
    problems.push(`OIDC_PROVIDER_ID cannot be ${parsed.OIDC_PROVIDER_ID}: ${reservedSocialProviderIds.join(", ")} are taken by the presets and the local provider.`);
  }
  return problems;
}

function toSocialProviders(parsed: ParsedEnvironment): SocialProviderConfiguration[] {
  const providers: SocialProviderConfiguration[] = [];
  if (parsed.GOOGLE_CLIENT_ID && parsed.GOOGLE_CLIENT_SECRET) {
    providers.push({ kind: "openid_connect", id: "google", name: "Google", issuer: googleIssuer, clientId: parsed.GOOGLE_CLIENT_ID, clientSecret: parsed.GOOGLE_CLIENT_SECRET });
  }
  if (parsed.GITHUB_CLIENT_ID && parsed.GITHUB_CLIENT_SECRET) {
    providers.push({ kind: "github", id: "github", name: "GitHub", clientId: parsed.GITHUB_CLIENT_ID, clientSecret: parsed.GITHUB_CLIENT_SECRET });
  }
  if (parsed.OIDC_PROVIDER_ID && parsed.OIDC_PROVIDER_NAME && parsed.OIDC_ISSUER && parsed.OIDC_CLIENT_ID && parsed.OIDC_CLIENT_SECRET) {
    providers.push({
      kind: "openid_connect",
      id: parsed.OIDC_PROVIDER_ID,
      name: parsed.OIDC_PROVIDER_NAME,
      issuer: parsed.OIDC_ISSUER.replace(/\/+$/, ""),
      clientId: parsed.OIDC_CLIENT_ID,
      clientSecret: parsed.OIDC_CLIENT_SECRET,
    });
  }
  return providers;
}

function billingProviderOf(parsed: ParsedEnvironment): "dev" | "stripe" {
  return parsed.BILLING_PROVIDER ?? (parsed.STRIPE_SECRET_KEY ? "stripe" : "dev");
}

function findBillingProblems(parsed: ParsedEnvironment): string[] {
  if (billingProviderOf(parsed) !== "stripe") {
    return [];
  }
  const problems: string[] = [];
  if (!parsed.STRIPE_SECRET_KEY) {
    problems.push("BILLING_PROVIDER is stripe, so set STRIPE_SECRET_KEY (or use BILLING_PROVIDER=dev outside production).");
  }
  if (!parsed.STRIPE_WEBHOOK_SECRET) {
    problems.push("BILLING_PROVIDER is stripe, so set STRIPE_WEBHOOK_SECRET (the whsec_… signing secret of the /stripe/webhook endpoint); without it no subscription would ever be recorded.");
  }
  const missingPrices = planPriceKeys.filter((key) => !parsed.STRIPE_PRICE_IDS?.[key]);
  if (missingPrices.length > 0) {
    problems.push(`BILLING_PROVIDER is stripe, so STRIPE_PRICE_IDS needs the Stripe price id of every plan; missing: ${missingPrices.join(", ")}.`);
  }
  return problems;
}

function toConfiguration(parsed: ParsedEnvironment): Configuration {
  const port = parsed.PORT;
  const publicOrigin = new URL(parsed.PUBLIC_ORIGIN ?? `http://localhost:${port}`).origin;
  const captcha: CaptchaConfiguration =
    parsed.CAPTCHA_PROVIDER === "recaptcha"
      ? { provider: "recaptcha", siteKey: parsed.RECAPTCHA_SITE_KEY ?? "", secretKey: parsed.RECAPTCHA_SECRET_KEY ?? "" }
      : { provider: "altcha", maximumNumber: parsed.ALTCHA_MAX_NUMBER };
  return {
    environment: parsed.NODE_ENV,
    port,
    // Outside production the stand-ins answer, so by default only this machine may connect.
    host: parsed.HOST ?? (parsed.NODE_ENV === "production" ? "0.0.0.0" : "127.0.0.1"),
    publicOrigin,
    dataDirectory: path.resolve(parsed.DATA_DIR ?? path.join(serverPackageDirectory, "..", "..", "data")),
    databaseUrl: parsed.DATABASE_URL ?? null,
    webBuildDirectory: path.resolve(parsed.WEB_BUILD_DIR ?? path.join(serverPackageDirectory, "..", "web", "build", "client")),
    secretKey: parsed.SECRET_KEY ?? developmentSecretKey,
    smtpUrl: parsed.SMTP_URL ?? null,
    mailFrom: parsed.MAIL_FROM ?? "Atelier <no-reply@atelier.localhost>",
    contactRecipient: parsed.CONTACT_RECIPIENT ?? "painter@atelier.localhost",
    captcha,
    analytics: parsed.ANALYTICS_SCRIPT_URL && parsed.ANALYTICS_DOMAIN ? { scriptUrl: parsed.ANALYTICS_SCRIPT_URL, domain: parsed.ANALYTICS_DOMAIN } : null,
    contactRateLimit: parsed.CONTACT_RATE_LIMIT,
    studyRateLimit: parsed.STUDY_RATE_LIMIT,
    studyLargeSessionRateLimit: parsed.STUDY_LARGE_SESSION_RATE_LIMIT,
    studyNewLearnerRateLimit: parsed.STUDY_NEW_LEARNER_RATE_LIMIT,
    trustProxy: parsed.TRUST_PROXY,
    identity: {
      loginByCodeEnabled: parsed.ACCOUNT_LOGIN_BY_CODE_ENABLED,
      emailVerification: parsed.ACCOUNT_EMAIL_VERIFICATION,
      emailVerificationByCodeEnabled: parsed.ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED,
      passwordResetByCodeEnabled: parsed.ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED,
      trackUserSessionActivity: parsed.USERSESSIONS_TRACK_ACTIVITY,
      reauthenticationRequired: parsed.ACCOUNT_REAUTHENTICATION_REQUIRED,
      reauthenticationTimeoutSeconds: parsed.ACCOUNT_REAUTHENTICATION_TIMEOUT,
      mfa: {
        supportedTypes: parsed.MFA_SUPPORTED_TYPES,
        passkeyLoginEnabled: parsed.MFA_PASSKEY_LOGIN_ENABLED,
        passkeySignupEnabled: parsed.MFA_PASSKEY_SIGNUP_ENABLED,
        recoveryCodesShowOnce: parsed.MFA_RECOVERY_CODES_SHOW_ONCE,
        relyingPartyId: parsed.WEBAUTHN_RP_ID ?? new URL(publicOrigin).hostname,
        relyingPartyOrigin: new URL(parsed.WEBAUTHN_RP_ORIGIN ?? publicOrigin).origin,
        relyingPartyName: "Atelier",
      },
      socialProviders: toSocialProviders(parsed),
    },
    billing: toBillingConfiguration(parsed),
    localOpenIdProvider: (parsed.LOCAL_OIDC_PROVIDER ?? parsed.NODE_ENV !== "production") ? { port: parsed.LOCAL_OIDC_PORT } : null,
  };
}

function toBillingConfiguration(parsed: ParsedEnvironment): BillingConfiguration {
  if (billingProviderOf(parsed) === "dev") {
    return { provider: "dev" };
  }
  const useTestServer = Boolean(parsed.STRIPE_API_HOST || parsed.STRIPE_API_PORT !== undefined || parsed.STRIPE_API_PROTOCOL);
  return {
    provider: "stripe",
    secretKey: parsed.STRIPE_SECRET_KEY ?? "",
    webhookSecret: parsed.STRIPE_WEBHOOK_SECRET ?? "",
    priceIds: parsed.STRIPE_PRICE_IDS ?? {},
    api: useTestServer
      ? { host: parsed.STRIPE_API_HOST ?? "127.0.0.1", port: parsed.STRIPE_API_PORT ?? 12111, protocol: parsed.STRIPE_API_PROTOCOL ?? "http" }
      : null,
  };
}
