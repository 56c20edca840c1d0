import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { Button, ButtonLink } from "@atelier/ui";
import { useAuthStatus } from "@atelier/auth/react";
import { useSignOutDialogStore } from "./sign-out-dialog-store.ts";
import { useLoginModalStore } from "../login-modal/login-modal-store.ts";
import { useSiteShell } from "../site-shell/use-site-shell.ts";

/** In the header a quiet button beside the theme toggle; in the phone's menu a full-width one a thumb finds at once. */
function loginButtonLook(placement: "header" | "mobile") {
  return placement === "header"
    ? ({ variant: "ghost", size: "small", className: "site-header__login" } as const)
    : ({ variant: "secondary", size: "medium", className: "site-mobile-menu__login" } as const);
}

/** Log in when signed out; the user menu (Dashboard, Flashcards, Settings, Sign out) when signed in (spec 2.1, issue 13). */
export function UserMenu({ placement }: { placement: "header" | "mobile" }) {
  const { isAuthenticated, user } = useAuthStatus();
  const openLoginModal = useLoginModalStore((state) => state.open);
  const [menuState, setMenuState] = useState<"open" | "closed">("closed");
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const toggleButtonRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const shell = useSiteShell();

  // Another page closes the menu.
  const [menuPathname, setMenuPathname] = useState(location.pathname);
  if (menuPathname !== location.pathname) {
    setMenuPathname(location.pathname);
    setMenuState("closed");
  }
  useEffect(() => {
    if (menuState !== "open") return;
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setMenuState("closed");
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuState("closed");
      // The hidden list takes the focused entry with it: focus goes back to the button that opened it.
      toggleButtonRef.current?.focus();
    };
    document.addEventListener("mousedown", closeOnOutsideClick);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("mousedown", closeOnOutsideClick);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, [menuState]);

  if (shell === "static") {
    // A prerendered content page has no React: 'Log in' is a full page load into the app, and the site shell puts the
    // user menu in its place when this browser is signed in.
    return (
      <ButtonLink
        href={`/account/login?next=${encodeURIComponent(location.pathname)}`}
        {...loginButtonLook(placement)}
        data-shell-login=""
      >
        Log in
      </ButtonLink>
    );
  }

  if (!isAuthenticated) {
    return (
      <Button {...loginButtonLook(placement)} onClick={() => openLoginModal()}>
        Log in
      </Button>
    );
  }

  const links = (
    <>
      <li>
        <Link to="/dashboard" className="site-nav__link">
          Dashboard
        </Link>
      </li>
      <li>
        <Link to="/upload-subtitles" className="site-nav__link">
          Flashcards
        </Link>
      </li>
      <li>
        <Link to="/account" className="site-nav__link">
          Settings
        </Link>
      </li>
      <li>
        <Button
          variant="ghost"
          size="small"
          onClick={() => {
            setMenuState("closed");
            useSignOutDialogStore.getState().setState("open");
          }}
        >
          Sign out
        </Button>
      </li>
    </>
  );

  if (placement === "mobile") {
    return (
      <>
        <p className="site-mobile-menu__signed-in-as">Signed in as {user?.display ?? "you"}</p>
        <ul className="site-mobile-menu__list">{links}</ul>
      </>
    );
  }

  return (
    <div className="user-menu" ref={containerRef}>
      <Button ref={toggleButtonRef} variant="secondary" size="small" className="user-menu__button" title={user?.display} aria-expanded={menuState === "open"} aria-controls={menuId} onClick={() => setMenuState((state) => (state === "open" ? "closed" : "open"))}>
        <span className="user-menu__name">{user?.display ?? "Account"}</span>
      </Button>
      <ul id={menuId} className="user-menu__list" hidden={menuState === "closed"}>
        {links}
      </ul>
    </div>
  );
}
