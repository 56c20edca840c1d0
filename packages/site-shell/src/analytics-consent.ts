import type { SiteConfigClient } from "@atelier/site-api";
import { element, readStorage, safeLocalStorage, writeStorage, type SiteShellEnvironment } from "./dom.ts";

/** The app's AnalyticsConsentBanner's storage key and values, so a choice made on either side holds on the other. */
const ANALYTICS_CONSENT_STORAGE_KEY = "analytics-consent";

/**
 * The statistics consent of the app's AnalyticsConsentBanner: nothing is asked or loaded unless the server has
 * analytics configured, and nothing when its settings cannot be read.
 */
export async function offerAnalytics({ document, window }: SiteShellEnvironment, siteConfigClient: Pick<SiteConfigClient, "loadSiteConfig">): Promise<void> {
  const storage = safeLocalStorage(window);
  const decision = readStorage(storage, ANALYTICS_CONSENT_STORAGE_KEY);
  if (decision === "declined") return;
  let analytics;
  try {
    ({ analytics } = await siteConfigClient.loadSiteConfig());
  } catch {
    return;
  }
  if (!analytics) return;
  const { scriptUrl, domain } = analytics;
  const load = () => {
    if (document.querySelector("script[data-atelier-analytics]")) return;
    const script = element(document, "script", { src: scriptUrl, "data-domain": domain, "data-atelier-analytics": "true" });
    script.setAttribute("defer", "");
    document.head.append(script);
  };
  if (decision === "granted") {
    load();
    return;
  }
  const banner = element(document, "section", { class: "consent-banner", "aria-label": "Visit statistics" });
  banner.append(element(document, "p", {}, "May we count your visit anonymously? This loads a statistics script; nothing is shared until you agree."));
  const actions = element(document, "div", { class: "consent-banner__actions" });
  const decline = element(document, "button", { type: "button", class: "atelier-button atelier-button--secondary atelier-button--medium" }, "No, thanks");
  const allow = element(document, "button", { type: "button", class: "atelier-button atelier-button--primary atelier-button--medium" }, "Allow statistics");
  const decide = (choice: "granted" | "declined") => {
    writeStorage(storage, ANALYTICS_CONSENT_STORAGE_KEY, choice);
    banner.remove();
    if (choice === "granted") load();
  };
  decline.addEventListener("click", () => decide("declined"));
  allow.addEventListener("click", () => decide("granted"));
  actions.append(decline, allow);
  banner.append(actions);
  document.body.append(banner);
}
