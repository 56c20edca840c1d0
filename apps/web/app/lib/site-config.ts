import ky from "ky";
import * as v from "valibot";

const captchaSettingsSchema = v.variant("provider", [
  v.object({ provider: v.literal("altcha"), challengeUrl: v.string() }),
  v.object({ provider: v.literal("recaptcha"), siteKey: v.string() }),
]);

export const siteConfigSchema = v.object({
  captcha: captchaSettingsSchema,
  analytics: v.nullable(v.object({ scriptUrl: v.string(), domain: v.string() })),
});

export type SiteConfig = v.InferOutput<typeof siteConfigSchema>;
export type CaptchaSettings = v.InferOutput<typeof captchaSettingsSchema>;

let siteConfigRequest: Promise<SiteConfig> | undefined;

/** The server's public settings (captcha kind, analytics), fetched once per page load. */
export function loadSiteConfig(fetchImplementation: typeof fetch = (input, init) => fetch(input, init)): Promise<SiteConfig> {
  siteConfigRequest ??= ky
    .get("/site-config", { fetch: fetchImplementation, retry: 1 })
    .json()
    .then((body) => v.parse(siteConfigSchema, body))
    .catch((error: unknown) => {
      siteConfigRequest = undefined;
      throw error;
    });
  return siteConfigRequest;
}
