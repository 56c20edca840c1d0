import { createAllauthClient } from "@atelier/auth";
import { createSiteConfigClient, createSiteHttp } from "@atelier/site-api";
import { showAccount } from "./account-entry.ts";
import { offerAnalytics } from "./analytics-consent.ts";
import type { SiteShellEnvironment } from "./dom.ts";
import { wireEmbedGates } from "./embed-gates.ts";
import { wireHeader, wireThemeToggle } from "./header.ts";
import { returnFocusFromViewer } from "./viewer-focus-return.ts";

/** Where the server mounts allauth's headless API (the web app's `authClient` uses the same). */
const ALLAUTH_BASE_URL = "/_allauth";

/**
 * Wires a prerendered content page: the header, the click-to-load gates, the focus return from the viewer, then the
 * account entry and the statistics consent, which ask the server through the site's clients. Resolves once those two
 * are settled; the page is usable, and marked `data-hydrated`, before that.
 *
 * @example
 * await startSiteShell({ document, window, fetch: (input, init) => window.fetch(input, init) });
 */
export async function startSiteShell(environment: SiteShellEnvironment): Promise<void> {
  wireThemeToggle(environment);
  wireHeader(environment);
  wireEmbedGates(environment);
  returnFocusFromViewer(environment);
  // Browser tests wait for this mark, as they do for the app's hydration.
  environment.document.documentElement.dataset.hydrated = "true";
  const { fetch } = environment;
  const authClient = createAllauthClient({ baseUrl: ALLAUTH_BASE_URL, clientType: "browser", fetch });
  const siteConfigClient = createSiteConfigClient(createSiteHttp({ fetch }));
  await Promise.all([showAccount(environment, authClient), offerAnalytics(environment, siteConfigClient)]);
}
