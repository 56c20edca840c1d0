import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nextHeaderVisibility as appNextHeaderVisibility } from "../lib/use-header-visibility.ts";
import { IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY } from "@atelier/image-viewer/dom";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { nextHeaderVisibility, startSiteShell } from "./site-shell.js";
import { ThirdPartyEmbedGate } from "../components/ThirdPartyEmbedGate.tsx";

const prerenderedHeader = `
  <header class="site-header" data-state="visible">
    <div class="site-header__actions">
      <button type="button" class="atelier-theme-toggle" data-state="light" aria-label="Switch to dark theme"></button>
      <div class="site-header__account"><a data-shell-login="" href="/account/login?next=%2F">Log in</a></div>
      <button type="button" class="site-header__menu-button" aria-expanded="false" aria-controls="mobile-menu">
        <span class="atelier-visually-hidden">Open menu</span>
      </button>
    </div>
    <nav id="mobile-menu" class="site-mobile-menu" data-state="closed" hidden>
      <ul class="site-mobile-menu__list"><li class="site-mobile-menu__account"><a data-shell-login="" href="/account/login">Log in</a></li></ul>
    </nav>
  </header>
  <main>
    <div class="embed-gate" data-state="waiting" data-embed="facebook-page" data-page-url="https://www.facebook.com/atelier" data-width="500" data-height="700">
      <div class="embed-gate__placeholder"><button type="button">Show the events timeline</button></div>
    </div>
  </main>`;

function answering(routes: Record<string, unknown>) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input);
    if (!(path in routes)) return new Response("", { status: 404 });
    return new Response(JSON.stringify(routes[path]), { status: 200, headers: { "Content-Type": "application/json" } });
  });
}

async function start(fetch = answering({ "/site-config": { analytics: null } })) {
  await startSiteShell({ document, window, fetch: fetch as unknown as typeof globalThis.fetch });
  return fetch;
}

beforeEach(() => {
  // The statistics script's address is not fetched in a test.
  const happyDom = (window as unknown as { happyDOM?: { settings: { disableJavaScriptFileLoading: boolean } } }).happyDOM;
  if (happyDom) happyDom.settings.disableJavaScriptFileLoading = true;
  document.body.innerHTML = prerenderedHeader;
  document.documentElement.removeAttribute("data-hydrated");
  document.documentElement.dataset.theme = "light";
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.cookie = "atelier_signed_in=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/";
});
afterEach(() => {
  document.body.innerHTML = "";
});

describe("given a prerendered content page without React", () => {
  it("should say when it is ready, as the app's hydration does", async () => {
    await start();
    expect(document.documentElement.dataset.hydrated).toBe("true");
  });

  it("should switch the theme, remember it, and say what the button does next", async () => {
    document.documentElement.dataset.theme = "dark";
    await start();
    const toggle = document.querySelector<HTMLButtonElement>(".atelier-theme-toggle");
    expect(toggle?.getAttribute("aria-label")).toBe("Switch to light theme");
    toggle?.click();
    expect(document.documentElement.dataset.theme).toBe("light");
    expect(window.localStorage.getItem("theme")).toBe("light");
    expect(toggle?.getAttribute("aria-label")).toBe("Switch to dark theme");
    expect(toggle?.dataset.state).toBe("light");
  });

  it("should open the mobile menu, name the button for what it does, and close it with Escape", async () => {
    await start();
    const button = document.querySelector<HTMLButtonElement>(".site-header__menu-button");
    const menu = document.getElementById("mobile-menu");
    button?.click();
    expect(menu?.hidden).toBe(false);
    expect(button?.getAttribute("aria-expanded")).toBe("true");
    expect(button?.textContent?.trim()).toBe("Close menu");
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    expect(menu?.hidden).toBe(true);
    expect(button?.textContent?.trim()).toBe("Open menu");
  });

  it("should hide and show the header on scroll exactly as the app does", () => {
    for (const [current, previous, next] of [["visible", 0, 30], ["visible", 100, 200], ["hidden", 300, 250], ["hidden", 300, 295], ["visible", 500, 505]] as const) {
      expect(nextHeaderVisibility(current, previous, next)).toBe(appNextHeaderVisibility(current, previous, next));
    }
  });

  it("should keep 'Log in' and not ask for the session when this browser never signed in", async () => {
    const fetch = await start();
    expect(fetch).not.toHaveBeenCalledWith("/_allauth/browser/v1/auth/session", expect.anything());
    expect(document.querySelectorAll("[data-shell-login]")).toHaveLength(2);
  });

  it("should put the user menu in place of 'Log in' when the session says who is signed in", async () => {
    document.cookie = "atelier_signed_in=1; Path=/";
    await start(answering({ "/_allauth/browser/v1/auth/session": { status: 200, data: { user: { display: "ada@example.org" } } }, "/site-config": { analytics: null } }));
    expect(document.querySelectorAll("[data-shell-login]")).toHaveLength(0);
    const menuButton = document.querySelector<HTMLButtonElement>(".user-menu__button");
    expect(menuButton?.textContent).toBe("ada@example.org");
    const list = document.querySelector<HTMLUListElement>(".user-menu__list");
    expect(list?.hidden).toBe(true);
    menuButton?.click();
    expect(list?.hidden).toBe(false);
    expect([...(list?.querySelectorAll("a") ?? [])].map((link) => `${link.textContent} ${link.getAttribute("href")}`)).toEqual([
      "Dashboard /dashboard",
      "Flashcards /upload-subtitles",
      "Settings /account",
      "Sign out /account/logout",
    ]);
    expect(document.querySelector(".site-mobile-menu__signed-in-as")?.textContent).toBe("Signed in as ada@example.org");
  });

  it("should keep 'Log in' when the hint cookie outlived the session", async () => {
    document.cookie = "atelier_signed_in=1; Path=/";
    await start(answering({ "/site-config": { analytics: null } }));
    expect(document.querySelectorAll("[data-shell-login]")).toHaveLength(2);
  });

  it("should create the social timeline only when the visitor asks for it", async () => {
    await start();
    expect(document.querySelector(".fb-page")).toBeNull();
    expect(document.getElementById("facebook-jssdk")).toBeNull();
    document.querySelector<HTMLButtonElement>(".embed-gate button")?.click();
    expect(document.querySelector(".fb-page")?.getAttribute("data-href")).toBe("https://www.facebook.com/atelier");
    expect(document.querySelector(".embed-gate")?.getAttribute("data-state")).toBe("loaded");
  });

  it("should create a gated frame (the studio's map) only when the visitor asks for it, as the gate describes it", async () => {
    const gate = createElement(ThirdPartyEmbedGate, {
      providerName: "OpenStreetMap",
      buttonLabel: "Show the map",
      width: 480,
      height: 360,
      staticEmbed: { kind: "frame", src: "https://www.openstreetmap.org/export/embed.html", title: "Map of the studio", className: "studio-map" },
      children: () => null,
    });
    document.body.innerHTML = `${prerenderedHeader}<aside>${renderToStaticMarkup(gate)}</aside>`;
    await start();
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
    expect(document.querySelector("main .embed-gate")?.getAttribute("data-state")).toBe("waiting");
  });

  it("should ask before counting visits when the server has statistics, and load nothing on 'No, thanks'", async () => {
    await start(answering({ "/site-config": { analytics: { scriptUrl: "https://stats.example/script.js", domain: "atelier.example" } } }));
    expect(document.querySelector(".consent-banner")).not.toBeNull();
    const decline = [...document.querySelectorAll<HTMLButtonElement>(".consent-banner button")].find((button) => button.textContent === "No, thanks");
    decline?.click();
    expect(document.querySelector(".consent-banner")).toBeNull();
    expect(document.querySelector("script[data-atelier-analytics]")).toBeNull();
    expect(window.localStorage.getItem("analytics-consent")).toBe("declined");
  });

  it("should load the statistics script at once for a visitor who allowed it before", async () => {
    window.localStorage.setItem("analytics-consent", "granted");
    await start(answering({ "/site-config": { analytics: { scriptUrl: "https://stats.example/script.js", domain: "atelier.example" } } }));
    expect(document.querySelector(".consent-banner")).toBeNull();
    expect(document.querySelector("script[data-atelier-analytics]")?.getAttribute("src")).toBe("https://stats.example/script.js");
  });
});

describe("given a painting page loaded by closing the viewer", () => {
  const paintingLinks = `
    <article class="painting-detail">
      <a href="/janus-unmasked/image/1" class="painting-detail__main-image">Full view</a>
      <ul><li><a href="/janus-unmasked/image/2">Detail</a></li></ul>
    </article>`;

  beforeEach(() => {
    document.body.insertAdjacentHTML("beforeend", paintingLinks);
    window.history.replaceState(null, "", "/janus-unmasked");
  });

  it("should give the focus back to the link of the image that was open, and forget it", async () => {
    window.sessionStorage.setItem(IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY, JSON.stringify({ path: "/janus-unmasked", href: "/janus-unmasked/image/2" }));
    await start();
    expect(document.activeElement?.getAttribute("href")).toBe("/janus-unmasked/image/2");
    expect(window.sessionStorage.getItem(IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY)).toBeNull();
  });

  it("should leave the focus alone when the viewer closed to another page", async () => {
    window.sessionStorage.setItem(IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY, JSON.stringify({ path: "/the-brothers-of-ursa-major", href: "/janus-unmasked/image/2" }));
    await start();
    expect(document.activeElement).toBe(document.body);
  });
});
