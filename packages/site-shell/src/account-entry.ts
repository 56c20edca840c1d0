import type { AllauthClient } from "@atelier/auth";
import { element, type SiteShellEnvironment } from "./dom.ts";

/** Set by the server while this browser has a session; it only spares visitors who never signed in the session call. */
export const SIGNED_IN_HINT_COOKIE = "atelier_signed_in";

function hasSignedInHint(document: Document): boolean {
  return document.cookie.split(";").some((cookie) => cookie.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}

function accountLinks(document: Document): HTMLElement[] {
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
 * visitors who never signed in the session call; the call decides, and any failure keeps 'Log in'.
 */
export async function showAccount({ document, window }: SiteShellEnvironment, authClient: Pick<AllauthClient, "getAuthenticationStatus">): Promise<void> {
  if (!hasSignedInHint(document)) return;
  let display: string;
  try {
    const session = await authClient.getAuthenticationStatus();
    if (session.status !== 200) return;
    display = session.data.user.display;
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
    const setOpen = (open: boolean) => {
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
