import { useEffect, useState } from "react";
import { Button } from "@atelier/ui";
import { loadSiteConfig } from "../lib/site-config.ts";
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

export default function AnalyticsConsentBanner() {
  const [analytics, setAnalytics] = useState<SiteConfig["analytics"]>(null);
  const [decision, setDecision] = useState<AnalyticsConsentDecision>("undecided");

  useEffect(() => {
    const storedDecision = readAnalyticsConsent();
    setDecision(storedDecision);
    if (storedDecision === "declined") return;
    loadSiteConfig()
      .then((config) => {
        if (!config.analytics) return;
        setAnalytics(config.analytics);
        if (storedDecision === "granted") loadAnalyticsScript(config.analytics);
      })
      .catch(() => {
        // Without the settings there are no analytics, which is the safe default.
      });
  }, []);

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
