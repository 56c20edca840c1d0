import * as v from "valibot";
import type { SiteHttp } from "./site-http.ts";

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

/**
 * The server's public settings (captcha kind, analytics), fetched once per client (so once per page load) and asked
 * again after a failure.
 *
 * @example
 * const siteConfig = createSiteConfigClient(createSiteHttp());
 * const { captcha } = await siteConfig.loadSiteConfig();
 */
export function createSiteConfigClient({ api }: SiteHttp) {
  let siteConfigRequest: Promise<SiteConfig> | undefined;
  return {
    loadSiteConfig(): Promise<SiteConfig> {
      siteConfigRequest ??= api
        .get("/site-config", { retry: 1 })
        .json()
        .then((body) => v.parse(siteConfigSchema, body))
        .catch((error: unknown) => {
          siteConfigRequest = undefined;
          throw error;
        });
      return siteConfigRequest;
    },
  };
}

export type SiteConfigClient = ReturnType<typeof createSiteConfigClient>;
