import type { MiddlewareHandler } from "hono";
import type { Configuration } from "../config.ts";
import { buildContentSecurityPolicy } from "./content-security-policy.ts";

/** Set by the site handler when it serves an HTML page with inline scripts. */
export type SecurityHeadersVariables = { inlineScriptHashes?: readonly string[] };

/**
 * Adds the security headers to every response, error responses included.
 *
 * @example
 * app.use(createSecurityHeadersMiddleware(configuration));
 */
export function createSecurityHeadersMiddleware(configuration: Configuration): MiddlewareHandler<{ Variables: SecurityHeadersVariables }> {
  const isHttps = configuration.publicOrigin.startsWith("https:");
  const socialProviderOrigins = configuration.identity.socialProviders.map((provider) => (provider.kind === "github" ? "https://github.com" : new URL(provider.issuer).origin));
  const policyOf = (inlineScriptHashes: readonly string[]) =>
    buildContentSecurityPolicy({
      inlineScriptHashes,
      captchaProvider: configuration.captcha.provider,
      analyticsScriptUrl: configuration.analytics?.scriptUrl ?? null,
      billingProvider: configuration.billing.provider,
      socialProviderOrigins,
    });
  // Built once: every answer but an HTML page with inline scripts (every API call) carries this one.
  const policyWithoutInlineScripts = policyOf([]);
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    const inlineScriptHashes = c.get("inlineScriptHashes");
    headers.set("Content-Security-Policy", inlineScriptHashes === undefined || inlineScriptHashes.length === 0 ? policyWithoutInlineScripts : policyOf(inlineScriptHashes));
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Cross-Origin-Opener-Policy", "same-origin");
    headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    if (isHttps) {
      headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
  };
}
