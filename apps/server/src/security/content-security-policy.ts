export type ContentSecurityPolicyOptions = {
  /** `sha256-…` sources (without quotes) of the inline scripts of the HTML page being served. */
  inlineScriptHashes: readonly string[];
  captchaProvider: "altcha" | "recaptcha";
  /** The full URL of the analytics script, or `null` when analytics is off. */
  analyticsScriptUrl: string | null;
  /** With Stripe, the billing-portal form post is redirected to Stripe, and `form-action` also governs redirects. */
  billingProvider?: "dev" | "stripe";
  /** The sign-in pages of third-party providers: the provider redirect is a form post answered with a redirect there. */
  socialProviderOrigins?: readonly string[];
};

export const stripeBillingPortalOrigin = "https://billing.stripe.com";

export const facebookScriptOrigin = "https://connect.facebook.net";

/**
 * The Content-Security-Policy header value: only what the site loads, nothing more.
 *
 * @example
 * buildContentSecurityPolicy({ inlineScriptHashes: ["sha256-abc="], captchaProvider: "altcha", analyticsScriptUrl: null });
 */
export function buildContentSecurityPolicy(options: ContentSecurityPolicyOptions): string {
  const scriptSources = ["'self'", ...options.inlineScriptHashes.map((hash) => `'${hash}'`), facebookScriptOrigin];
  const frameSources = ["https://www.facebook.com", "https://www.openstreetmap.org"];
  const connectSources = ["'self'"];
  if (options.captchaProvider === "recaptcha") {
    scriptSources.push("https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/");
    frameSources.push("https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/");
  }
  if (options.analyticsScriptUrl) {
    const analyticsOrigin = new URL(options.analyticsScriptUrl).origin;
    scriptSources.push(analyticsOrigin);
    // Analytics scripts report page views back to their own origin.
    connectSources.push(analyticsOrigin);
  }
  const directives: [string, string[]][] = [
    ["default-src", ["'self'"]],
    ["script-src", scriptSources],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:"]],
    ["font-src", ["'self'"]],
    ["connect-src", connectSources],
    ["frame-src", frameSources],
    ["worker-src", ["'self'", "blob:"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["form-action", ["'self'", ...(options.billingProvider === "stripe" ? [stripeBillingPortalOrigin] : []), ...(options.socialProviderOrigins ?? [])]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${[...new Set(sources)].join(" ")}`).join("; ");
}
