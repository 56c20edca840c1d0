// @ts-check
// The few kilobytes that content pages run instead of React (issue 16; decision 0034): the prerendered header's
// theme toggle, mobile menu, hide-on-scroll and account entry, the click-to-load embeds and the statistics consent.
// Plain JavaScript, served as it is (imported with ?url&no-inline), so it needs no build of its own.

const SCROLL_TOLERANCE_PIXELS = 8;
const ALWAYS_VISIBLE_ABOVE_PIXELS = 64;
const THEME_STORAGE_KEY = "theme";
const ANALYTICS_CONSENT_STORAGE_KEY = "analytics-consent";
const SIGNED_IN_HINT_COOKIE = "atelier_signed_in";
const SESSION_PATH = "/_allauth/browser/v1/auth/session";
// @atelier/image-viewer's IMAGE_VIEWER_RETURN_FOCUS_STORAGE_KEY, kept equal by a test.
const VIEWER_RETURN_FOCUS_STORAGE_KEY = "atelier-image-viewer:return-focus";
const SUN_ICON =
  '<svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"><circle cx="12" cy="12" r="4"></circle><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"></path></svg>';
const MOON_ICON =
  '<svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"><path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z"></path></svg>';

/**
 * @typedef {{ document: Document; window: Window & typeof globalThis; fetch: typeof fetch }} ShellEnvironment
 */

/**
 * The next header visibility after a scroll: down hides, up shows, the top always shows (the app's
 * `nextHeaderVisibility`, kept equal by a test).
 * @param {"visible" | "hidden"} current
 * @param {number} previousScrollY
 * @param {number} scrollY
 * @returns {"visible" | "hidden"}
 */
export function nextHeaderVisibility(current, previousScrollY, scrollY) {
  if (scrollY <= ALWAYS_VISIBLE_ABOVE_PIXELS) return "visible";
  const movement = scrollY - previousScrollY;
  if (movement > SCROLL_TOLERANCE_PIXELS) return "hidden";
  if (movement < -SCROLL_TOLERANCE_PIXELS) return "visible";
  return current;
}

/** @param {Storage | undefined} storage @param {string} key */
function readStorage(storage, key) {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** @param {Storage | undefined} storage @param {string} key @param {string} value */
function writeStorage(storage, key, value) {
  try {
    storage?.setItem(key, value);
  } catch {
    // Private browsing may refuse storage: the choice then lasts for this page only.
  }
}

/** @param {ShellEnvironment["window"]} window */
function safeLocalStorage(window) {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** @param {ShellEnvironment} environment */
function wireThemeToggle({ document, window }) {
  const root = document.documentElement;
  const storage = safeLocalStorage(window);
  /** @param {HTMLButtonElement} button */
  const render = (button) => {
    const theme = root.dataset.theme === "dark" ? "dark" : "light";
    button.dataset.state = theme;
    button.setAttribute("aria-label", theme === "dark" ? "Switch to light theme" : "Switch to dark theme");
    button.innerHTML = theme === "dark" ? SUN_ICON : MOON_ICON;
  };
  for (const button of document.querySelectorAll("button.atelier-theme-toggle")) {
    if (!(button instanceof window.HTMLButtonElement)) continue;
    render(button);
    button.addEventListener("click", () => {
      const next = root.dataset.theme === "dark" ? "light" : "dark";
      root.dataset.theme = next;
      root.style.colorScheme = next;
      writeStorage(storage, THEME_STORAGE_KEY, next);
      render(button);
    });
  }
}

/**
 * Back from the viewer, a page of its own since decision 0037: the link that opened the image takes the focus again,
 * as the app's painting page does with its navigation state. The viewer leaves `{ path, href }` in session storage.
 * @param {ShellEnvironment} environment
 */
function returnFocusFromViewer({ document, window }) {
  let storage;
  try {
    storage = window.sessionStorage;
  } catch {
    return;
  }
  const stored = readStorage(storage, VIEWER_RETURN_FOCUS_STORAGE_KEY);
  if (stored === null) return;
  try {
    storage.removeItem(VIEWER_RETURN_FOCUS_STORAGE_KEY);
  } catch {
    // Storage that refuses removal refused the viewer's note too.
  }
  let returnFocus;
  try {
    returnFocus = JSON.parse(stored);
  } catch {
    return;
  }
  if (returnFocus?.path !== window.location.pathname || typeof returnFocus.href !== "string") return;
  const link = [...document.querySelectorAll("a[href]")].find((anchor) => anchor.getAttribute("href") === returnFocus.href);
  if (link instanceof window.HTMLElement) link.focus();
}

/** @param {ShellEnvironment} environment */
function wireHeader({ document, window }) {
  const header = document.querySelector(".site-header");
  const menuButton = document.querySelector(".site-header__menu-button");
  const menu = menuButton ? document.getElementById(menuButton.getAttribute("aria-controls") ?? "") : null;
  let menuState = "closed";
  /** @param {"open" | "closed"} state */
  const setMenuState = (state) => {
    menuState = state;
    if (!menuButton || !menu) return;
    menuButton.setAttribute("aria-expanded", String(state === "open"));
    const label = menuButton.querySelector(".atelier-visually-hidden");
    if (label) label.textContent = state === "open" ? "Close menu" : "Open menu";
    menu.hidden = state === "closed";
    menu.dataset.state = state;
    if (state === "open" && header instanceof window.HTMLElement) header.dataset.state = "visible";
  };
  menuButton?.addEventListener("click", () => setMenuState(menuState === "open" ? "closed" : "open"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menuState === "open") setMenuState("closed");
  });

  if (!(header instanceof window.HTMLElement)) return;
  let anchorScrollY = window.scrollY;
  let frameRequested = false;
  window.addEventListener(
    "scroll",
    () => {
      if (frameRequested) return;
      frameRequested = true;
      window.requestAnimationFrame(() => {
        frameRequested = false;
        if (menuState === "open") return;
        const scrollY = window.scrollY;
        const current = header.dataset.state === "hidden" ? "hidden" : "visible";
        const next = nextHeaderVisibility(current, anchorScrollY, scrollY);
        if (next !== current || Math.abs(scrollY - anchorScrollY) > SCROLL_TOLERANCE_PIXELS) anchorScrollY = scrollY;
        header.dataset.state = next;
      });
    },
    { passive: true },
  );
}

/**
 * @param {Document} document
 * @param {string} tag
 * @param {Record<string, string>} attributes
 * @param {string} [text]
 */
function element(document, tag, attributes, text) {
  const created = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value);
  if (text !== undefined) created.textContent = text;
  return created;
}

/** @param {Document} document */
function accountLinks(document) {
  const items = [
    ["/dashboard", "Dashboard"],
    ["/upload-subtitles", "Flashcards"],
    ["/account", "Settings"],
  ].map(([href, label]) => {
    const item = element(document, "li", {});
    item.append(element(document, "a", { href: href ?? "/", class: "site-nav__link" }, label));
    return item;
  });
  // Signing out asks first (spec 4.5): the account pages' sign-out page does, with the app.
  const signOut = element(document, "li", {});
  signOut.append(element(document, "a", { href: "/account/logout", class: "atelier-button atelier-button--ghost atelier-button--small" }, "Sign out"));
  return [...items, signOut];
}

/**
 * Replaces the prerendered 'Log in' entries with the user menu when this browser is signed in. The hint cookie saves
 * visitors who never signed in the session call; the call decides.
 * @param {ShellEnvironment} environment
 */
async function showAccount({ document, window, fetch }) {
  if (!document.cookie.split(";").some((cookie) => cookie.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`))) return;
  let display;
  try {
    const response = await fetch(SESSION_PATH, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (response.status !== 200) return;
    const answer = await response.json();
    display = String(answer?.data?.user?.display ?? answer?.data?.user?.email ?? "Account");
  } catch {
    return;
  }
  const headerEntry = document.querySelector(".site-header__account [data-shell-login]");
  if (headerEntry) {
    const container = element(document, "div", { class: "user-menu" });
    const listId = "user-menu-list";
    const button = element(document, "button", {
      type: "button",
      class: "atelier-button atelier-button--secondary atelier-button--small user-menu__button",
      title: display,
      "aria-expanded": "false",
      "aria-controls": listId,
    });
    button.append(element(document, "span", { class: "user-menu__name" }, display));
    const list = element(document, "ul", { id: listId, class: "user-menu__list" });
    list.hidden = true;
    list.append(...accountLinks(document));
    /** @param {boolean} open */
    const setOpen = (open) => {
      list.hidden = !open;
      button.setAttribute("aria-expanded", String(open));
    };
    button.addEventListener("click", () => setOpen(list.hidden !== false));
    document.addEventListener("mousedown", (event) => {
      if (event.target instanceof window.Node && !container.contains(event.target)) setOpen(false);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") setOpen(false);
    });
    container.append(button, list);
    headerEntry.replaceWith(container);
  }
  const mobileEntry = document.querySelector(".site-mobile-menu__account [data-shell-login]");
  if (mobileEntry) {
    const signedInAs = element(document, "p", { class: "site-mobile-menu__signed-in-as" }, `Signed in as ${display}`);
    const list = element(document, "ul", { class: "site-mobile-menu__list" });
    list.append(...accountLinks(document));
    mobileEntry.replaceWith(signedInAs, list);
  }
}

/**
 * A click-to-load frame (the studio's map on /contact), from the gate's `data-frame-*` attributes.
 * @param {Document} document
 * @param {HTMLElement} gate
 */
function createFrame(document, gate) {
  const frame = element(document, "iframe", {
    class: gate.dataset.frameClass ?? "",
    title: gate.dataset.frameTitle ?? "",
    src: gate.dataset.frameSrc ?? "",
    width: gate.dataset.width ?? "",
    height: gate.dataset.height ?? "",
    loading: "lazy",
  });
  gate.replaceChildren(frame);
  gate.dataset.state = "loaded";
}

/**
 * A click-to-load embed (the events page's social timeline, the studio's map): the placeholder's button creates the
 * third-party content only when asked, as the app's ThirdPartyEmbedGate does.
 * @param {ShellEnvironment} environment
 */
function wireEmbeds({ document, window }) {
  for (const gate of document.querySelectorAll(".embed-gate[data-embed='frame']")) {
    const button = gate.querySelector("button");
    if (!(gate instanceof window.HTMLElement) || !button) continue;
    button.addEventListener("click", () => createFrame(document, gate));
  }
  for (const gate of document.querySelectorAll(".embed-gate[data-embed='facebook-page']")) {
    const button = gate.querySelector("button");
    if (!(gate instanceof window.HTMLElement) || !button) continue;
    button.addEventListener("click", () => {
      const pageUrl = gate.dataset.pageUrl ?? "";
      const timeline = element(document, "div", {});
      timeline.append(element(document, "div", { id: "fb-root" }));
      const plugin = element(document, "div", {
        class: "fb-page",
        "data-href": pageUrl,
        "data-tabs": "timeline,events",
        "data-width": gate.dataset.width ?? "500",
        "data-height": gate.dataset.height ?? "700",
        "data-small-header": "false",
        "data-hide-cover": "false",
      });
      const quote = element(document, "blockquote", { cite: pageUrl, class: "fb-xfbml-parse-ignore" });
      quote.append(element(document, "a", { href: pageUrl }, "Our page"));
      plugin.append(quote);
      timeline.append(plugin);
      gate.replaceChildren(timeline);
      gate.dataset.state = "loaded";
      const script = element(document, "script", { id: "facebook-jssdk", src: "https://connect.facebook.net/en_US/sdk.js#xfbml=1&version=v19.0", crossorigin: "anonymous" });
      script.setAttribute("async", "");
      document.body.append(script);
    });
  }
}

/**
 * The statistics consent of the app's AnalyticsConsentBanner: nothing is asked or loaded unless the server has
 * analytics configured.
 * @param {ShellEnvironment} environment
 */
async function offerAnalytics({ document, window, fetch }) {
  const storage = safeLocalStorage(window);
  const decision = readStorage(storage, ANALYTICS_CONSENT_STORAGE_KEY);
  if (decision === "declined") return;
  let analytics;
  try {
    const response = await fetch("/site-config", { credentials: "same-origin" });
    analytics = response.ok ? (await response.json())?.analytics : null;
  } catch {
    return;
  }
  if (!analytics || typeof analytics.scriptUrl !== "string") return;
  const load = () => {
    if (document.querySelector("script[data-atelier-analytics]")) return;
    const script = element(document, "script", { src: analytics.scriptUrl, "data-domain": String(analytics.domain ?? ""), "data-atelier-analytics": "true" });
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
  /** @param {"granted" | "declined"} choice */
  const decide = (choice) => {
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

/**
 * Wires a prerendered content page. Resolves once the account entry and the consent banner are settled; the page is
 * usable before that.
 * @param {ShellEnvironment} environment
 */
export async function startSiteShell(environment) {
  wireThemeToggle(environment);
  wireHeader(environment);
  wireEmbeds(environment);
  returnFocusFromViewer(environment);
  // Browser tests wait for this mark, as they do for the app's hydration.
  environment.document.documentElement.dataset.hydrated = "true";
  await Promise.all([showAccount(environment), offerAnalytics(environment)]);
}

// Runs only as the page's own script (the prerender marks its tag); a test imports the functions without running them.
const pageWindow = typeof globalThis.window === "undefined" ? undefined : globalThis.window;
if (pageWindow?.document.querySelector("script[data-site-shell]")) {
  void startSiteShell({ document: pageWindow.document, window: pageWindow, fetch: (input, init) => pageWindow.fetch(input, init) });
}
