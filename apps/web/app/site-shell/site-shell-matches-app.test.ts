import { beforeEach, describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { nextHeaderVisibility, startSiteShell } from "@atelier/site-shell";
import { nextHeaderVisibility as appNextHeaderVisibility } from "../lib/use-header-visibility.ts";
import { ThirdPartyEmbedGate } from "../components/ThirdPartyEmbedGate.tsx";

// @atelier/site-shell repeats a little of the app for the prerendered pages; these tests hold the two together.
const siteConfig = { captcha: { provider: "altcha", challengeUrl: "/altcha/challenge" }, analytics: null };
const answerSiteConfig: typeof fetch = async () => new Response(JSON.stringify(siteConfig), { status: 200, headers: { "Content-Type": "application/json" } });

beforeEach(() => {
  document.body.innerHTML = "";
});

describe("given the site shell of the prerendered content pages", () => {
  it("should hide and show the header on scroll exactly as the app does", () => {
    for (const [current, previous, next] of [["visible", 0, 30], ["visible", 100, 200], ["hidden", 300, 250], ["hidden", 300, 295], ["visible", 500, 505]] as const) {
      expect(nextHeaderVisibility(current, previous, next)).toBe(appNextHeaderVisibility(current, previous, next));
    }
  });

  it("should create a gated frame (the studio's map) only when the visitor asks for it, as the app's gate describes it", async () => {
    const gate = createElement(ThirdPartyEmbedGate, {
      providerName: "OpenStreetMap",
      buttonLabel: "Show the map",
      width: 480,
      height: 360,
      staticEmbed: { kind: "frame", src: "https://www.openstreetmap.org/export/embed.html", title: "Map of the studio", className: "studio-map" },
      children: () => null,
    });
    document.body.innerHTML = `<aside>${renderToStaticMarkup(gate)}</aside>`;
    await startSiteShell({ document, window, fetch: answerSiteConfig });
    const mapGate = document.querySelector("aside .embed-gate");
    expect(mapGate?.querySelector("iframe")).toBeNull();
    mapGate?.querySelector<HTMLButtonElement>("button")?.click();
    const frame = mapGate?.querySelector("iframe");
    expect([frame?.className, frame?.title, frame?.getAttribute("src"), frame?.getAttribute("width"), frame?.getAttribute("height"), frame?.getAttribute("loading")]).toEqual([
      "studio-map",
      "Map of the studio",
      "https://www.openstreetmap.org/export/embed.html",
      "480",
      "360",
      "lazy",
    ]);
    expect(mapGate?.getAttribute("data-state")).toBe("loaded");
  });
});
