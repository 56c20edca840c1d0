export type CaptchaVerificationResult =
  | { status: "verified" }
  | { status: "rejected"; reason: "missing" | "malformed" | "invalid" | "expired" | "replayed" }
  | { status: "unavailable"; error: Error };

/** What the page needs at runtime to show the captcha widget. */
export type CaptchaPublicSettings = { provider: "altcha"; challengeUrl: string } | { provider: "recaptcha"; siteKey: string };

/**
 * Checks the captcha token the contact form sends as `recaptchaToken`.
 *
 * @example
 * const result = await captcha.verifyCaptchaToken(token, { clientAddress: "203.0.113.7" });
 */
export type Captcha = {
  provider: "altcha" | "recaptcha";
  publicSettings: CaptchaPublicSettings;
  verifyCaptchaToken: (token: string, context: { clientAddress: string | null }) => Promise<CaptchaVerificationResult>;
  /** Only the ALTCHA captcha issues challenges; its widget fetches one from `/captcha/challenge`. */
  createChallenge?: () => Promise<unknown>;
};
