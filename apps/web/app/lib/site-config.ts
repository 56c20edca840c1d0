import { createSiteConfigClient } from "@atelier/site-api";
import { createClientContext } from "./client-context.tsx";
import { siteHttp } from "./site-http.ts";

/** The server's public settings (captcha kind, analytics), fetched once per page load: components use the hook. */
export const siteConfigClient = createSiteConfigClient(siteHttp);
export const { Provider: SiteConfigClientProvider, useClient: useSiteConfigClient } = createClientContext(siteConfigClient);
