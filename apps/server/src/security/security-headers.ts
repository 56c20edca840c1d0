import type { MiddlewareHandler } from "hono";
import type { Configuration } from "../config.ts";
import { buildContentSecurityPolicy } from "./content-security-policy.ts";

/** Set by the site handler when it serves an HTML page with inline scripts. */
export type SecurityHeadersVariables = { inlineScriptHashes?: readonly string[] };

/**
 * The security headers of an answer, given its Content-Security-Policy: every answer carries them, error answers
 * included. One list for the Hono stack's middleware and the node front.
 */
function securityHeadersOf(isHttps: boolean, contentSecurityPolicy: string): Readonly<Record<string, string>> {
  return {
    "Content-Security-Policy": contentSecurityPolicy,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    ...(isHttps ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

function contentSecurityPolicyOf(configuration: Configuration): (inlineScriptHashes: readonly string[]) => string {
  const socialProviderOrigins = configuration.identity.socialProviders.map((provider) => (provider.kind === "github" ? "https://github.com" : new URL(provider.issuer).origin));
  return (inlineScriptHashes) =>
    buildContentSecurityPolicy({
      inlineScriptHashes,
      captchaProvider: configuration.captcha.provider,
      analyticsScriptUrl: configuration.analytics?.scriptUrl ?? null,
      billingProvider: configuration.billing.provider,
      socialProviderOrigins,
    });
}

/** The security headers of every answer but an HTML page with inline scripts (every API answer carries these). */
export function securityHeadersWithoutInlineScripts(configuration: Configuration): Readonly<Record<string, string>> {
  return securityHeadersOf(configuration.publicOrigin.startsWith("https:"), contentSecurityPolicyOf(configuration)([]));
}

/**
 * Adds the security headers to every response, error responses included.
 *
 * @example
 * app.use(createSecurityHeadersMiddleware(configuration));
 */
export function createSecurityHeadersMiddleware(configuration: Configuration): MiddlewareHandler<{ Variables: SecurityHeadersVariables }> {
  const isHttps = configuration.publicOrigin.startsWith("https:");
  const policyOf = contentSecurityPolicyOf(configuration);
  // Built once: every answer but an HTML page with inline scripts (every API call) carries these.
  const headersWithoutInlineScripts = Object.entries(securityHeadersWithoutInlineScripts(configuration));
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    const inlineScriptHashes = c.get("inlineScriptHashes");
    const entries = inlineScriptHashes === undefined || inlineScriptHashes.length === 0 ? headersWithoutInlineScripts : Object.entries(securityHeadersOf(isHttps, policyOf(inlineScriptHashes)));
    for (const [name, value] of entries) headers.set(name, value);
  };
}
