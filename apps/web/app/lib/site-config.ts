import { createSiteConfigClient, type SiteConfig } from "@atelier/site-api";
import { siteHttp } from "./site-http.ts";

const siteConfigClient = createSiteConfigClient(siteHttp);

/** The server's public settings (captcha kind, analytics), fetched once per page load. */
export function loadSiteConfig(): Promise<SiteConfig> {
  return siteConfigClient.loadSiteConfig();
}
