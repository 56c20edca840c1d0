import { useEffect, useId, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { ThemeToggle } from "@atelier/ui";
import { artistProfile } from "@atelier/catalogue";
import { primaryNavigationLinks } from "../lib/site-paths.ts";
import { useHeaderVisibility } from "../lib/use-header-visibility.ts";
import { useThemeStore } from "../lib/theme-store.ts";
import { UserMenu } from "./UserMenu.tsx";

function UserMenuForMobile() {
  const menu = <UserMenu placement="mobile" />;
  return <li className="site-mobile-menu__account">{menu}</li>;
}

export function SiteHeader() {
  const [mobileMenuState, setMobileMenuState] = useState<"open" | "closed">("closed");
  const visibility = useHeaderVisibility(mobileMenuState === "open");
  const theme = useThemeStore((state) => state.theme);
  const setTheme = useThemeStore((state) => state.setTheme);
  const synchroniseWithDocument = useThemeStore((state) => state.synchroniseWithDocument);
  const location = useLocation();
  const mobileMenuId = useId();

  // Another page closes the mobile menu.
  const [menuPathname, setMenuPathname] = useState(location.pathname);
  if (menuPathname !== location.pathname) {
    setMenuPathname(location.pathname);
    setMobileMenuState("closed");
  }

  useEffect(synchroniseWithDocument, [synchroniseWithDocument]);
  useEffect(() => {
    if (mobileMenuState !== "open") return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMobileMenuState("closed");
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [mobileMenuState]);

  const navigationItems = primaryNavigationLinks.map((link) => (
    <li key={link.to}>
      <NavLink to={link.to} className="site-nav__link" prefetch="intent">
        {link.label}
      </NavLink>
    </li>
  ));

  return (
    <header className="site-header" data-state={visibility}>
      {/* In the head (React hoists it): the first paint waits for the header's last element, the mobile menu. Painted
          before the header's end had arrived, the actions grew leftwards as their later buttons came (CLS 0.001). */}
      <link rel="expect" href={`#${mobileMenuId}`} blocking="render" />
      <div className="site-header__inner">
        <Link to="/" className="site-header__brand">
          {artistProfile.studioName}
        </Link>
        <nav className="site-nav" aria-label="Main">
          <ul className="site-nav__list">{navigationItems}</ul>
        </nav>
        <div className="site-header__actions">
          <ThemeToggle theme={theme} onThemeChange={setTheme} />
          <div className="site-header__account">
            <UserMenu placement="header" />
          </div>
          <button
            type="button"
            className="site-header__menu-button"
            aria-expanded={mobileMenuState === "open"}
            aria-controls={mobileMenuId}
            onClick={() => setMobileMenuState((state) => (state === "open" ? "closed" : "open"))}
          >
            <span aria-hidden="true" className="site-header__menu-icon" />
            <span className="atelier-visually-hidden">{mobileMenuState === "open" ? "Close menu" : "Open menu"}</span>
          </button>
        </div>
      </div>
      <nav id={mobileMenuId} className="site-mobile-menu" data-state={mobileMenuState} aria-label="Mobile" hidden={mobileMenuState === "closed"}>
        <ul className="site-mobile-menu__list">
          {navigationItems}
          <UserMenuForMobile />
        </ul>
      </nav>
    </header>
  );
}
