import { describe, expect, it } from "vitest";
import { buildContentSecurityPolicy } from "./content-security-policy.ts";

function readDirectives(policy: string): Record<string, string[]> {
  return Object.fromEntries(policy.split("; ").map((directive) => {
    const [name = "", ...sources] = directive.split(" ");
    return [name, sources];
  }));
}

describe("given the ALTCHA captcha and no analytics", () => {
  const directives = readDirectives(buildContentSecurityPolicy({ inlineScriptHashes: ["sha256-abc="], captchaProvider: "altcha", analyticsScriptUrl: null }));

  it("should allow scripts from the site, the page's inline script hashes and the Facebook widget only", () => {
    expect(directives["script-src"]).toEqual(["'self'", "'sha256-abc='", "https://connect.facebook.net"]);
  });

  it("should allow the captcha worker, the Facebook and OpenStreetMap frames, and nothing else outside", () => {
    expect(directives["worker-src"]).toEqual(["'self'", "blob:"]);
    expect(directives["frame-src"]).toEqual(["https://www.facebook.com", "https://www.openstreetmap.org"]);
    expect(directives["connect-src"]).toEqual(["'self'"]);
    expect(directives["img-src"]).toEqual(["'self'", "data:", "blob:"]);
    expect(directives["default-src"]).toEqual(["'self'"]);
  });

  it("should forbid framing, plugins, foreign base URLs and foreign form targets", () => {
    expect(directives["frame-ancestors"]).toEqual(["'none'"]);
    expect(directives["object-src"]).toEqual(["'none'"]);
    expect(directives["base-uri"]).toEqual(["'self'"]);
    expect(directives["form-action"]).toEqual(["'self'"]);
  });
});

describe("given reCAPTCHA and analytics", () => {
  const directives = readDirectives(
    buildContentSecurityPolicy({ inlineScriptHashes: [], captchaProvider: "recaptcha", analyticsScriptUrl: "https://plausible.io/js/script.js" }),
  );

  it("should add Google's reCAPTCHA paths to scripts and frames", () => {
    expect(directives["script-src"]).toEqual(expect.arrayContaining(["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"]));
    expect(directives["frame-src"]).toEqual(expect.arrayContaining(["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"]));
  });

  it("should add the analytics origin to scripts and connections", () => {
    expect(directives["script-src"]).toContain("https://plausible.io");
    expect(directives["connect-src"]).toEqual(["'self'", "https://plausible.io"]);
  });
});

describe("given Stripe as the billing provider", () => {
  it("should let the billing-portal form post be redirected to Stripe, and nothing else", () => {
    const directives = readDirectives(buildContentSecurityPolicy({ inlineScriptHashes: [], captchaProvider: "altcha", analyticsScriptUrl: null, billingProvider: "stripe" }));
    expect(directives["form-action"]).toEqual(["'self'", "https://billing.stripe.com"]);
  });
});
