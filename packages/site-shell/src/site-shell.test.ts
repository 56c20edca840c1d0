import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY } from "@atelier/image-viewer/dom";
import { nextHeaderVisibility, startSiteShell, VIEWER_RETURN_FOCUS_STORAGE_KEY } from "./index.ts";

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

const siteConfigWithoutStatistics = { captcha: { provider: "altcha", challengeUrl: "/altcha/challenge" }, analytics: null };
const siteConfigWithStatistics = { ...siteConfigWithoutStatistics, analytics: { scriptUrl: "https://stats.example/script.js", domain: "atelier.example" } };
const SESSION_PATH = "/_allauth/browser/v1/auth/session";
const signedInSession = {
  status: 200,
  data: { user: { id: 7, display: "ada@example.org", email: "ada@example.org", has_usable_password: true }, methods: [{ method: "password", at: 1_700_000_000, email: "ada@example.org" }] },
  meta: { is_authenticated: true },
};

/** A server answering the paths it knows with their JSON and 404 otherwise, recording each path asked. */
function answering(routes: Record<string, unknown>) {
  const askedPaths: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    const path = new URL(input instanceof Request ? input.url : String(input), window.location.href).pathname;
    askedPaths.push(path);
    if (!(path in routes)) return new Response("", { status: 404 });
    return new Response(JSON.stringify(routes[path]), { status: 200, headers: { "Content-Type": "application/json" } });
  };
  return { fetch, askedPaths };
}

async function start(server = answering({ "/site-config": siteConfigWithoutStatistics })) {
  await startSiteShell({ document, window, fetch: server.fetch });
  return server;
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

  it("should hide the header on a scroll down, show it on a scroll up or near the top, and ignore jitter", () => {
    const moves = [["hidden", 300, 30], ["visible", 100, 200], ["hidden", 300, 250], ["hidden", 300, 295], ["visible", 500, 505]] as const;
    expect(moves.map(([current, previous, next]) => nextHeaderVisibility(current, previous, next))).toEqual(["visible", "hidden", "visible", "hidden", "visible"]);
  });

  it("should read the scroll position in the first frame, not while the script runs, and hide or show from there", async () => {
    const frames: FrameRequestCallback[] = [];
    const scrollListeners: EventListener[] = [];
    let scrollY = 400;
    let scrollReads = 0;
    // The real window, but its frames, its scroll position and its scroll listeners in the test's hands.
    const windowInFrames = new Proxy(window, {
      get(target, property) {
        if (property === "scrollY") {
          scrollReads += 1;
          return scrollY;
        }
        if (property === "requestAnimationFrame") return (callback: FrameRequestCallback) => frames.push(callback);
        if (property === "addEventListener") {
          return (type: string, listener: EventListener, options?: AddEventListenerOptions) => (type === "scroll" ? scrollListeners.push(listener) : target.addEventListener(type, listener, options));
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" && !/^[A-Z]/.test(String(property)) ? value.bind(target) : value;
      },
    });
    const runFrames = () => frames.splice(0).forEach((callback) => callback(0));
    const scrollTo = (position: number) => {
      scrollY = position;
      scrollListeners.forEach((listener) => listener(new Event("scroll")));
      runFrames();
    };
    await startSiteShell({ document, window: windowInFrames, fetch: answering({ "/site-config": siteConfigWithoutStatistics }).fetch });
    expect(scrollReads).toBe(0);
    runFrames();
    expect(scrollReads).toBe(1);
    const header = document.querySelector<HTMLElement>(".site-header");
    // A page restored 400 px down: 5 px up is jitter from there, not 395 px down from the top.
    scrollTo(395);
    expect(header?.dataset.state).toBe("visible");
    scrollTo(600);
    expect(header?.dataset.state).toBe("hidden");
    scrollTo(500);
    expect(header?.dataset.state).toBe("visible");
  });

  it("should keep 'Log in' and not ask for the session when this browser never signed in", async () => {
    const { askedPaths } = await start();
    expect(askedPaths).not.toContain(SESSION_PATH);
    expect(document.querySelectorAll("[data-shell-login]")).toHaveLength(2);
  });

  it("should put the user menu in place of 'Log in' when the session says who is signed in", async () => {
    document.cookie = "atelier_signed_in=1; Path=/";
    await start(answering({ [SESSION_PATH]: signedInSession, "/site-config": siteConfigWithoutStatistics }));
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
    const signedOut = { status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } };
    const server = answering({ "/site-config": siteConfigWithoutStatistics });
    await start({ ...server, fetch: async (input, init) => (new URL((input as Request).url).pathname === SESSION_PATH ? new Response(JSON.stringify(signedOut), { status: 401 }) : server.fetch(input, init)) });
    expect(document.querySelectorAll("[data-shell-login]")).toHaveLength(2);
  });

  it("should keep 'Log in' and still be ready when the session cannot be asked", async () => {
    document.cookie = "atelier_signed_in=1; Path=/";
    const server = answering({ "/site-config": siteConfigWithoutStatistics });
    await start({ ...server, fetch: async (input, init) => (new URL((input as Request).url).pathname === SESSION_PATH ? Promise.reject(new TypeError("Failed to fetch")) : server.fetch(input, init)) });
    expect(document.querySelectorAll("[data-shell-login]")).toHaveLength(2);
    expect(document.documentElement.dataset.hydrated).toBe("true");
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
    // As the web app's ThirdPartyEmbedGate renders it with a frame `staticEmbed` (its own test there renders the component).
    const gate = `<div class="embed-gate" data-state="waiting" data-embed="frame" data-frame-src="https://www.openstreetmap.org/export/embed.html"
      data-frame-title="Map of the studio" data-frame-class="studio-map" data-width="480" data-height="360" style="max-width:480px;aspect-ratio:480 / 360">
      <div class="embed-gate__placeholder"><p>Loading this content connects to OpenStreetMap, which receives data about your visit.</p>
      <button type="button" class="atelier-button atelier-button--secondary atelier-button--medium">Show the map</button></div></div>`;
    document.body.innerHTML = `${prerenderedHeader}<aside>${gate}</aside>`;
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
    await start(answering({ "/site-config": siteConfigWithStatistics }));
    expect(document.querySelector(".consent-banner")).not.toBeNull();
    const decline = [...document.querySelectorAll<HTMLButtonElement>(".consent-banner button")].find((button) => button.textContent === "No, thanks");
    decline?.click();
    expect(document.querySelector(".consent-banner")).toBeNull();
    expect(document.querySelector("script[data-atelier-analytics]")).toBeNull();
    expect(window.localStorage.getItem("analytics-consent")).toBe("declined");
  });

  it("should ask nothing about statistics when the server's settings cannot be read", async () => {
    await start(answering({}));
    expect(document.querySelector(".consent-banner")).toBeNull();
    expect(document.querySelector("script[data-atelier-analytics]")).toBeNull();
  });

  it("should load the statistics script at once for a visitor who allowed it before", async () => {
    window.localStorage.setItem("analytics-consent", "granted");
    await start(answering({ "/site-config": siteConfigWithStatistics }));
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

  it("should read the viewer's note under the key the viewer writes it", () => {
    expect(VIEWER_RETURN_FOCUS_STORAGE_KEY).toBe(IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY);
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
