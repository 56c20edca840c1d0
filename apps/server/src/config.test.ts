import { describe, expect, it } from "vitest";
import { ConfigurationError, developmentSecretKey, loadConfiguration } from "./config.ts";

function captureConfigurationProblems(environment: Record<string, string>): readonly string[] {
  try {
    loadConfiguration(environment);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      return error.problems;
    }
    throw error;
  }
  throw new Error("Expected loadConfiguration to throw a ConfigurationError.");
}

const completeProductionEnvironment = {
  NODE_ENV: "production",
  SECRET_KEY: "a-production-secret-that-is-long-enough-0123456789",
  SMTP_URL: "smtp://user:password@mail.example.ch:587",
  MAIL_FROM: "Atelier <atelier@example.ch>",
  CONTACT_RECIPIENT: "painter@example.ch",
  PUBLIC_ORIGIN: "https://atelier.example.ch",
  STRIPE_SECRET_KEY: "sk_live_atelier_example_key",
  STRIPE_WEBHOOK_SECRET: "whsec_atelier_example",
  STRIPE_PRICE_IDS: JSON.stringify({ basic_month: "price_1", basic_year: "price_2", plus_month: "price_3", plus_year: "price_4", studio_month: "price_5", studio_year: "price_6" }),
};

describe("given no environment variables", () => {
  const configuration = loadConfiguration({});

  it("should run in development on port 3000 of this machine only", () => {
    expect(configuration.environment).toBe("development");
    expect(configuration.port).toBe(3000);
    expect(configuration.host).toBe("127.0.0.1");
    expect(configuration.publicOrigin).toBe("http://localhost:3000");
  });

  it("should use SQLite in the repository's data folder and the web build beside this app", () => {
    expect(configuration.databaseUrl).toBeNull();
    expect(configuration.dataDirectory).toMatch(/[/\\]data$/);
    expect(configuration.webBuildDirectory).toMatch(/apps[/\\]web[/\\]build[/\\]client$/);
  });

  it("should use the development outbox, the development secret, ALTCHA and no analytics", () => {
    expect(configuration.smtpUrl).toBeNull();
    expect(configuration.secretKey).toBe(developmentSecretKey);
    expect(configuration.captcha).toEqual({ provider: "altcha", maximumNumber: 20_000 });
    expect(configuration.analytics).toBeNull();
  });

  it("should allow 5 contact messages per 10 minutes and not trust proxy headers", () => {
    expect(configuration.contactRateLimit).toEqual({ maximumRequests: 5, windowMilliseconds: 600_000 });
    expect(configuration.studyRateLimit).toEqual({ maximumRequests: 600, windowMilliseconds: 60_000 });
    expect(configuration.trustProxy).toBe(false);
  });

  it("should sign in by code, verify e-mail by code (mandatory), reset passwords by link and track session activity", () => {
    expect(configuration.identity).toEqual({
      loginByCodeEnabled: true,
      emailVerification: "mandatory",
      emailVerificationByCodeEnabled: true,
      passwordResetByCodeEnabled: false,
      trackUserSessionActivity: true,
      reauthenticationRequired: true,
      reauthenticationTimeoutSeconds: 300,
      mfa: {
        supportedTypes: ["totp", "recovery_codes", "webauthn"],
        passkeyLoginEnabled: true,
        passkeySignupEnabled: true,
        recoveryCodesShowOnce: false,
        relyingPartyId: "localhost",
        relyingPartyOrigin: "http://localhost:3000",
        relyingPartyName: "Atelier",
      },
      socialProviders: [],
    });
  });

  it("should start the local OpenID provider on a free port", () => {
    expect(configuration.localOpenIdProvider).toEqual({ port: 0 });
  });
});

describe("given explicit settings", () => {
  it("should read each of them", () => {
    const configuration = loadConfiguration({
      PORT: "4100",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/atelier",
      CAPTCHA_PROVIDER: "recaptcha",
      RECAPTCHA_SITE_KEY: "site-key",
      RECAPTCHA_SECRET_KEY: "secret-key",
      ANALYTICS_SCRIPT_URL: "https://plausible.io/js/script.js",
      ANALYTICS_DOMAIN: "atelier.example.ch",
      CONTACT_RATE_LIMIT: "3/1h",
      STUDY_RATE_LIMIT: "120/30s",
      TRUST_PROXY: "true",
    });
    expect(configuration.publicOrigin).toBe("http://localhost:4100");
    expect(configuration.databaseUrl).toBe("postgres://postgres@127.0.0.1:5432/atelier");
    expect(configuration.captcha).toEqual({ provider: "recaptcha", siteKey: "site-key", secretKey: "secret-key" });
    expect(configuration.analytics).toEqual({ scriptUrl: "https://plausible.io/js/script.js", domain: "atelier.example.ch" });
    expect(configuration.contactRateLimit).toEqual({ maximumRequests: 3, windowMilliseconds: 3_600_000 });
    expect(configuration.studyRateLimit).toEqual({ maximumRequests: 120, windowMilliseconds: 30_000 });
    expect(configuration.trustProxy).toBe(true);
  });

  it("should read the identity settings", () => {
    const configuration = loadConfiguration({
      ...completeProductionEnvironment,
      ACCOUNT_LOGIN_BY_CODE_ENABLED: "false",
      ACCOUNT_EMAIL_VERIFICATION: "optional",
      ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: "0",
      ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: "true",
      USERSESSIONS_TRACK_ACTIVITY: "false",
      ACCOUNT_REAUTHENTICATION_REQUIRED: "false",
      ACCOUNT_REAUTHENTICATION_TIMEOUT: "60",
      PUBLIC_ORIGIN: "https://atelier.example.ch",
      MFA_SUPPORTED_TYPES: "recovery_codes, totp",
      MFA_PASSKEY_LOGIN_ENABLED: "false",
      MFA_PASSKEY_SIGNUP_ENABLED: "0",
      MFA_RECOVERY_CODES_SHOW_ONCE: "true",
    });
    expect(configuration.identity).toEqual({
      loginByCodeEnabled: false,
      emailVerification: "optional",
      emailVerificationByCodeEnabled: false,
      passwordResetByCodeEnabled: true,
      trackUserSessionActivity: false,
      reauthenticationRequired: false,
      reauthenticationTimeoutSeconds: 60,
      mfa: {
        supportedTypes: ["recovery_codes", "totp"],
        passkeyLoginEnabled: false,
        passkeySignupEnabled: false,
        recoveryCodesShowOnce: true,
        relyingPartyId: "atelier.example.ch",
        relyingPartyOrigin: "https://atelier.example.ch",
        relyingPartyName: "Atelier",
      },
      socialProviders: [],
    });
  });

  it("should take the WebAuthn relying party from WEBAUTHN_RP_ID and WEBAUTHN_RP_ORIGIN", () => {
    const configuration = loadConfiguration({ ...completeProductionEnvironment, PUBLIC_ORIGIN: "https://www.atelier.example.ch", WEBAUTHN_RP_ID: "atelier.example.ch", WEBAUTHN_RP_ORIGIN: "https://app.atelier.example.ch/ignored" });
    expect(configuration.identity.mfa).toMatchObject({ relyingPartyId: "atelier.example.ch", relyingPartyOrigin: "https://app.atelier.example.ch" });
  });

  it("should refuse unknown MFA types and recovery codes alone", () => {
    expect(captureConfigurationProblems({ MFA_SUPPORTED_TYPES: "totp,sms" })).toEqual(["MFA_SUPPORTED_TYPES must be a comma-separated list of totp, recovery_codes and webauthn."]);
    expect(captureConfigurationProblems({ MFA_SUPPORTED_TYPES: "recovery_codes" })).toEqual(["MFA_SUPPORTED_TYPES cannot be recovery_codes alone: recovery codes back up another factor."]);
    expect(captureConfigurationProblems({ WEBAUTHN_RP_ID: "https://atelier.example" })).toEqual(["WEBAUTHN_RP_ID must be a host name such as atelier.example (no scheme, no port)."]);
  });

  it("should refuse an unknown e-mail verification mode", () => {
    expect(captureConfigurationProblems({ ACCOUNT_EMAIL_VERIFICATION: "sometimes" })).toEqual(["ACCOUNT_EMAIL_VERIFICATION must be mandatory, optional or none."]);
  });

  it("should treat empty values as unset", () => {
    expect(loadConfiguration({ PORT: "", SMTP_URL: " " }).port).toBe(3000);
  });

  it("should list every malformed value in one error", () => {
    const problems = captureConfigurationProblems({ PORT: "eighty", DATABASE_URL: "mysql://x", CONTACT_RATE_LIMIT: "lots", NODE_ENV: "staging" });
    expect(problems).toEqual([
      "NODE_ENV must be development, test or production.",
      "PORT must be a whole number.",
      "DATABASE_URL must start with postgres:// (leave it unset to use SQLite in DATA_DIR).",
      expect.stringContaining("CONTACT_RATE_LIMIT must look like 5/10m"),
    ]);
  });

  it("should refuse recaptcha without keys in any environment", () => {
    expect(captureConfigurationProblems({ CAPTCHA_PROVIDER: "recaptcha" })).toEqual([expect.stringContaining("set both RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY")]);
  });
});

describe("given production", () => {
  it("should start with a complete configuration", () => {
    const configuration = loadConfiguration(completeProductionEnvironment);
    expect(configuration.environment).toBe("production");
    expect(configuration.publicOrigin).toBe("https://atelier.example.ch");
  });

  it("should refuse the development outbox and name SMTP_URL", () => {
    const { SMTP_URL: _smtpUrl, ...environment } = completeProductionEnvironment;
    expect(captureConfigurationProblems(environment)).toEqual([expect.stringContaining("SMTP_URL is missing, so mail would go to the development outbox")]);
  });

  it("should refuse a missing SECRET_KEY", () => {
    const { SECRET_KEY: _secretKey, ...environment } = completeProductionEnvironment;
    expect(captureConfigurationProblems(environment)).toEqual([expect.stringContaining("SECRET_KEY is missing")]);
  });

  it("should refuse the development SECRET_KEY", () => {
    expect(captureConfigurationProblems({ ...completeProductionEnvironment, SECRET_KEY: developmentSecretKey })).toEqual([
      expect.stringContaining("SECRET_KEY is the development default"),
    ]);
  });

  it("should refuse recaptcha without keys", () => {
    expect(captureConfigurationProblems({ ...completeProductionEnvironment, CAPTCHA_PROVIDER: "recaptcha" })).toEqual([
      expect.stringContaining("CAPTCHA_PROVIDER is recaptcha"),
    ]);
  });

  it("should listen on every interface, for the proxy in front of it", () => {
    expect(loadConfiguration(completeProductionEnvironment).host).toBe("0.0.0.0");
    expect(loadConfiguration({ ...completeProductionEnvironment, HOST: "127.0.0.1" }).host).toBe("127.0.0.1");
  });

  it("should name every missing production setting at once", () => {
    const problems = captureConfigurationProblems({ NODE_ENV: "production" });
    expect(problems.map((problem) => problem.split(" ")[0])).toEqual(["SECRET_KEY", "SMTP_URL", "CONTACT_RECIPIENT", "MAIL_FROM", "PUBLIC_ORIGIN", "BILLING_PROVIDER"]);
  });

  it("should use Stripe with its keys and price ids", () => {
    expect(loadConfiguration(completeProductionEnvironment).billing).toEqual({
      provider: "stripe",
      secretKey: "sk_live_atelier_example_key",
      webhookSecret: "whsec_atelier_example",
      priceIds: expect.objectContaining({ plus_month: "price_3" }),
      api: null,
    });
  });

  it("should refuse the development billing provider and name it", () => {
    const { STRIPE_SECRET_KEY: _key, STRIPE_WEBHOOK_SECRET: _secret, STRIPE_PRICE_IDS: _prices, ...environment } = completeProductionEnvironment;
    expect(captureConfigurationProblems(environment)).toEqual([expect.stringContaining("BILLING_PROVIDER is dev")]);
    expect(captureConfigurationProblems({ ...completeProductionEnvironment, BILLING_PROVIDER: "dev" })).toEqual([expect.stringContaining("BILLING_PROVIDER is dev")]);
  });

  it("should refuse Stripe without its webhook secret or a price id, and a test API server", () => {
    const { STRIPE_WEBHOOK_SECRET: _secret, ...withoutSecret } = completeProductionEnvironment;
    expect(captureConfigurationProblems(withoutSecret)).toEqual([expect.stringContaining("set STRIPE_WEBHOOK_SECRET")]);
    expect(captureConfigurationProblems({ ...completeProductionEnvironment, STRIPE_PRICE_IDS: JSON.stringify({ plus_month: "price_3" }) })).toEqual([
      expect.stringContaining("missing: basic_month, basic_year, plus_year, studio_month, studio_year"),
    ]);
    expect(captureConfigurationProblems({ ...completeProductionEnvironment, STRIPE_API_HOST: "127.0.0.1" })).toEqual([expect.stringContaining("STRIPE_API_HOST")]);
  });
});

describe("given third-party sign-in settings", () => {
  it("should read the Google and GitHub presets and a generic OpenID Connect provider", () => {
    const configuration = loadConfiguration({
      GOOGLE_CLIENT_ID: "123.apps.googleusercontent.com",
      GOOGLE_CLIENT_SECRET: "google-secret",
      GITHUB_CLIENT_ID: "Iv1.github",
      GITHUB_CLIENT_SECRET: "github-secret",
      OIDC_PROVIDER_ID: "keycloak",
      OIDC_PROVIDER_NAME: "Clarens ID",
      OIDC_ISSUER: "https://id.example.ch/realms/atelier/",
      OIDC_CLIENT_ID: "atelier",
      OIDC_CLIENT_SECRET: "keycloak-secret",
      LOCAL_OIDC_PROVIDER: "false",
    });
    expect(configuration.identity.socialProviders).toEqual([
      { kind: "openid_connect", id: "google", name: "Google", issuer: "https://accounts.google.com", clientId: "123.apps.googleusercontent.com", clientSecret: "google-secret" },
      { kind: "github", id: "github", name: "GitHub", clientId: "Iv1.github", clientSecret: "github-secret" },
      { kind: "openid_connect", id: "keycloak", name: "Clarens ID", issuer: "https://id.example.ch/realms/atelier", clientId: "atelier", clientSecret: "keycloak-secret" },
    ]);
    expect(configuration.localOpenIdProvider).toBeNull();
  });

  it("should name a half-configured provider and a taken provider id", () => {
    expect(captureConfigurationProblems({ GOOGLE_CLIENT_ID: "123" })).toEqual(["Set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to offer sign-in with Google, or neither."]);
    expect(captureConfigurationProblems({ OIDC_ISSUER: "https://id.example.ch" })).toEqual([expect.stringContaining("needs all of OIDC_PROVIDER_ID, OIDC_PROVIDER_NAME, OIDC_ISSUER")]);
    expect(
      captureConfigurationProblems({ OIDC_PROVIDER_ID: "local", OIDC_PROVIDER_NAME: "Mine", OIDC_ISSUER: "https://id.example.ch", OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" }),
    ).toEqual([expect.stringContaining("OIDC_PROVIDER_ID cannot be local")]);
  });

  it("should keep the local provider off in production and refuse it when asked for", () => {
    expect(loadConfiguration(completeProductionEnvironment).localOpenIdProvider).toBeNull();
    expect(captureConfigurationProblems({ ...completeProductionEnvironment, LOCAL_OIDC_PROVIDER: "true" })).toEqual([expect.stringContaining("LOCAL_OIDC_PROVIDER is true")]);
    expect(captureConfigurationProblems({ ...completeProductionEnvironment, OIDC_PROVIDER_ID: "dex", OIDC_PROVIDER_NAME: "Dex", OIDC_ISSUER: "http://dex.internal", OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" })).toEqual([
      "OIDC_ISSUER must be an https:// address in production.",
    ]);
  });
});

describe("given billing settings outside production", () => {
  it("should use the development provider when no Stripe key is set", () => {
    expect(loadConfiguration({}).billing).toEqual({ provider: "dev" });
  });

  it("should refuse BILLING_PROVIDER=stripe without a key and a malformed STRIPE_PRICE_IDS", () => {
    expect(captureConfigurationProblems({ BILLING_PROVIDER: "stripe", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PRICE_IDS: JSON.stringify({ basic_month: "a", basic_year: "b", plus_month: "c", plus_year: "d", studio_month: "e", studio_year: "f" }) })).toEqual([
      expect.stringContaining("set STRIPE_SECRET_KEY"),
    ]);
    expect(captureConfigurationProblems({ STRIPE_PRICE_IDS: "[1,2]" })).toEqual([expect.stringContaining("STRIPE_PRICE_IDS must be a JSON object")]);
  });
});

describe("given a public PUBLIC_ORIGIN, whatever NODE_ENV says", () => {
  const { NODE_ENV: _nodeEnvironment, ...productionSettingsWithoutNodeEnvironment } = completeProductionEnvironment;

  it("should run as production when NODE_ENV is unset, with no development stand-in", () => {
    const configuration = loadConfiguration(productionSettingsWithoutNodeEnvironment);
    expect(configuration.environment).toBe("production");
    expect(configuration.localOpenIdProvider).toBeNull();
    expect(configuration.billing.provider).toBe("stripe");
  });

  it("should refuse to start without the production settings and name each one, when only PUBLIC_ORIGIN is given", () => {
    const problems = captureConfigurationProblems({ PUBLIC_ORIGIN: "https://atelier.example.ch" });
    expect(problems.map((problem) => problem.split(" ")[0])).toEqual(["SECRET_KEY", "SMTP_URL", "CONTACT_RECIPIENT", "MAIL_FROM", "BILLING_PROVIDER"]);
  });

  it.each(["development", "test"])("should refuse NODE_ENV=%s and say why", (nodeEnvironment) => {
    const problems = captureConfigurationProblems({ ...productionSettingsWithoutNodeEnvironment, NODE_ENV: nodeEnvironment });
    expect(problems).toEqual([expect.stringContaining(`PUBLIC_ORIGIN https://atelier.example.ch is reachable from other machines, but NODE_ENV is ${nodeEnvironment}`)]);
  });

  it.each(["http://192.168.1.20:3000", "http://atelier.lan:3000", "http://[2001:db8::1]:3000", "http://127.0.0.1.nip.io:3000", "http://localhost.example.ch"])(
    "should count %s as public",
    (publicOrigin) => {
      expect(captureConfigurationProblems({ PUBLIC_ORIGIN: publicOrigin })).toContainEqual(expect.stringContaining("SECRET_KEY is missing"));
    },
  );

  it.each(["http://localhost:3000", "http://127.0.0.1:3000", "http://127.1.2.3:8080", "http://[::1]:3000", "http://atelier.localhost:3000"])(
    "should count %s as this machine and develop there",
    (publicOrigin) => {
      const configuration = loadConfiguration({ PUBLIC_ORIGIN: publicOrigin });
      expect(configuration.environment).toBe("development");
      expect(configuration.localOpenIdProvider).not.toBeNull();
    },
  );
});
