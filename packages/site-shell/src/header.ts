import { safeLocalStorage, writeStorage, type SiteShellEnvironment } from "./dom.ts";

export type HeaderVisibility = "visible" | "hidden";

const SCROLL_TOLERANCE_PIXELS = 8;
const ALWAYS_VISIBLE_ABOVE_PIXELS = 64;
/** The app's theme storage key and `data-theme` values, so a choice made on either side holds on the other. */
const THEME_STORAGE_KEY = "theme";
const SUN_ICON =
  '<svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"><circle cx="12" cy="12" r="4"></circle><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"></path></svg>';
const MOON_ICON =
  '<svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"><path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z"></path></svg>';

/**
 * The next header visibility after a scroll: down hides, up shows, the top always shows (the web app's
 * `nextHeaderVisibility`, kept equal by a test there).
 *
 * @example
 * nextHeaderVisibility("visible", 100, 200); // "hidden"
 */
export function nextHeaderVisibility(current: HeaderVisibility, previousScrollY: number, scrollY: number): HeaderVisibility {
  if (scrollY <= ALWAYS_VISIBLE_ABOVE_PIXELS) return "visible";
  const movement = scrollY - previousScrollY;
  if (movement > SCROLL_TOLERANCE_PIXELS) return "hidden";
  if (movement < -SCROLL_TOLERANCE_PIXELS) return "visible";
  return current;
}

export function wireThemeToggle({ document, window }: SiteShellEnvironment): void {
  const root = document.documentElement;
  const storage = safeLocalStorage(window);
  const render = (button: HTMLButtonElement) => {
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

/** The mobile menu (Escape closes it) and hide-on-scroll, which pauses while the menu is open. */
export function wireHeader({ document, window }: SiteShellEnvironment): void {
  const header = document.querySelector(".site-header");
  const menuButton = document.querySelector(".site-header__menu-button");
  const menu = menuButton ? document.getElementById(menuButton.getAttribute("aria-controls") ?? "") : null;
  let menuState: "open" | "closed" = "closed";
  const setMenuState = (state: "open" | "closed") => {
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
  // Read in the first frame, whose layout is due then anyway: read while the script runs, `scrollY` laid the whole page
  // out inside the script's own task, its longest (decision 0067). A scroll's frame comes after this one.
  let anchorScrollY = 0;
  window.requestAnimationFrame(() => {
    anchorScrollY = window.scrollY;
  });
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
