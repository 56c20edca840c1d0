import type { Captcha } from "./captcha.ts";

export const recaptchaVerificationUrl = "https://www.google.com/recaptcha/api/siteverify";

/**
 * Google reCAPTCHA: the token is checked at Google's siteverify endpoint with the injected `fetch`.
 *
 * @example
 * const captcha = createRecaptchaCaptcha({ siteKey, secretKey, fetch: globalThis.fetch });
 */
export function createRecaptchaCaptcha(options: { siteKey: string; secretKey: string; fetch: typeof globalThis.fetch }): Captcha {
  return {
    provider: "recaptcha",
    publicSettings: { provider: "recaptcha", siteKey: options.siteKey },
    async verifyCaptchaToken(token, context) {
      if (token.trim() === "") {
        return { status: "rejected", reason: "missing" };
      }
      const form = new URLSearchParams({ secret: options.secretKey, response: token });
      if (context.clientAddress) {
        form.set("remoteip", context.clientAddress);
      }
      let answer: { success?: unknown; "error-codes"?: unknown };
      try {
        const response = await options.fetch(recaptchaVerificationUrl, { method: "POST", body: form, signal: AbortSignal.timeout(10_000) });
        if (!response.ok) {
          throw new Error(`reCAPTCHA siteverify answered HTTP ${response.status}.`);
        }
        answer = (await response.json()) as typeof answer;
      } catch (error) {
        return { status: "unavailable", error: error instanceof Error ? error : new Error(String(error)) };
      }
      if (answer.success === true) {
        return { status: "verified" };
      }
      const errorCodes = Array.isArray(answer["error-codes"]) ? answer["error-codes"] : [];
      return { status: "rejected", reason: errorCodes.includes("timeout-or-duplicate") ? "expired" : "invalid" };
    },
  };
}
