import { useEffect, useState } from "react";
import { Button } from "@atelier/ui";
import { useSiteConfigClient } from "../lib/site-config.ts";
import { type SiteConfig } from "@atelier/site-api";
import { readAnalyticsConsent, storeAnalyticsConsent, type AnalyticsConsentDecision } from "../lib/analytics-consent.ts";

function loadAnalyticsScript(analytics: NonNullable<SiteConfig["analytics"]>) {
  if (document.querySelector("script[data-atelier-analytics]")) return;
  const script = document.createElement("script");
  script.defer = true;
  script.src = analytics.scriptUrl;
  script.dataset.domain = analytics.domain;
  script.dataset.atelierAnalytics = "true";
  document.head.append(script);
}

/** Rendered only after hydration (AnalyticsConsent), so it reads the stored decision as it first renders. */
export default function AnalyticsConsentBanner() {
  const siteConfigClient = useSiteConfigClient();
  const [analytics, setAnalytics] = useState<SiteConfig["analytics"]>(null);
  const [decision, setDecision] = useState<AnalyticsConsentDecision>(readAnalyticsConsent);

  // Not a loader's data: the banner belongs to every page's frame, and with a decision already stored it loads the
  // statistics script, which is outside React.
  useEffect(() => {
    const storedDecision = readAnalyticsConsent();
    if (storedDecision === "declined") return;
    siteConfigClient
      .loadSiteConfig()
      .then((config) => {
        if (!config.analytics) return;
        setAnalytics(config.analytics);
        if (storedDecision === "granted") loadAnalyticsScript(config.analytics);
      })
      .catch(() => {
        // Without the settings there are no analytics, which is the safe default.
      });
  }, [siteConfigClient]);

  if (!analytics || decision !== "undecided") return null;

  const decide = (next: "granted" | "declined") => {
    storeAnalyticsConsent(next);
    setDecision(next);
    if (next === "granted") loadAnalyticsScript(analytics);
  };

  return (
    <section className="consent-banner" aria-label="Visit statistics">
      <p>May we count your visit anonymously? This loads a statistics script; nothing is shared until you agree.</p>
      <div className="consent-banner__actions">
        <Button variant="secondary" onClick={() => decide("declined")}>
          No, thanks
        </Button>
        <Button onClick={() => decide("granted")}>Allow statistics</Button>
      </div>
    </section>
  );
}
