import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { SiteConfigClient } from "@atelier/site-api";
import AnalyticsConsentBanner from "./AnalyticsConsentBanner.tsx";
import { SiteConfigClientProvider } from "../lib/site-config.ts";
import { ANALYTICS_CONSENT_STORAGE_KEY } from "../lib/analytics-consent.ts";

beforeEach(() => {
  // The statistics script's address is not fetched in a test: happy-dom counts it as loaded.
  const happyDom = (window as unknown as { happyDOM?: { settings: { disableJavaScriptFileLoading: boolean; handleDisabledFileLoadingAsSuccess: boolean } } }).happyDOM;
  if (happyDom) Object.assign(happyDom.settings, { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true });
});
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  document.querySelectorAll("script[data-atelier-analytics]").forEach((script) => script.remove());
});

const analytics = { scriptUrl: "https://stats.example/script.js", domain: "atelier.example" };

function renderBanner(configuredAnalytics: typeof analytics | null = analytics) {
  const loadSiteConfig = vi.fn<SiteConfigClient["loadSiteConfig"]>(async () => ({ captcha: { provider: "altcha", challengeUrl: "/captcha/challenge" }, analytics: configuredAnalytics }));
  render(
    <SiteConfigClientProvider client={{ loadSiteConfig }}>
      <AnalyticsConsentBanner />
    </SiteConfigClientProvider>,
  );
  return loadSiteConfig;
}

const statisticsScripts = () => document.querySelectorAll("script[data-atelier-analytics]");

describe("given the statistics consent banner", () => {
  it("should ask an undecided visitor when analytics are configured, and load the script once allowed", async () => {
    renderBanner();
    fireEvent.click(await screen.findByRole("button", { name: "Allow statistics" }));
    expect(screen.queryByRole("region", { name: "Visit statistics" })).toBeNull();
    expect(window.localStorage.getItem(ANALYTICS_CONSENT_STORAGE_KEY)).toBe("granted");
    expect(statisticsScripts()).toHaveLength(1);
  });

  it("should load the script without asking a visitor who allowed it before", async () => {
    window.localStorage.setItem(ANALYTICS_CONSENT_STORAGE_KEY, "granted");
    const loadSiteConfig = renderBanner();
    await vi.waitFor(() => expect(statisticsScripts()).toHaveLength(1));
    expect(loadSiteConfig).toHaveBeenCalledOnce();
    expect(screen.queryByRole("button", { name: "Allow statistics" })).toBeNull();
  });

  it("should not even ask for the settings when the visitor declined", () => {
    window.localStorage.setItem(ANALYTICS_CONSENT_STORAGE_KEY, "declined");
    const loadSiteConfig = renderBanner();
    expect(loadSiteConfig).not.toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: "Allow statistics" })).toBeNull();
  });

  it("should show nothing when the server has no analytics", async () => {
    const loadSiteConfig = renderBanner(null);
    await vi.waitFor(() => expect(loadSiteConfig).toHaveBeenCalledOnce());
    expect(screen.queryByRole("button", { name: "Allow statistics" })).toBeNull();
  });
});
