import type { ComponentPropsWithRef } from "react";
import { joinClassNames } from "../class-names";
import type { ThemeName } from "./theme-core";

export interface ThemeToggleProps extends Omit<ComponentPropsWithRef<"button">, "onClick" | "children"> {
  theme: ThemeName;
  /** Called with the other theme; store and apply it yourself (storeTheme, applyThemeToDocument). */
  onThemeChange: (theme: ThemeName) => void;
  switchToDarkLabel?: string;
  switchToLightLabel?: string;
}

/**
 * An icon button that switches between light and dark. Its accessible name says what pressing it does
 * ("Switch to dark theme"); `data-state` is the current theme.
 *
 * @example
 * <ThemeToggle theme={theme} onThemeChange={(nextTheme) => { setTheme(nextTheme); storeTheme(localStorage, nextTheme); applyThemeToDocument(document.documentElement, nextTheme); }} />
 */
export function ThemeToggle({
  theme,
  onThemeChange,
  switchToDarkLabel = "Switch to dark theme",
  switchToLightLabel = "Switch to light theme",
  className,
  ...buttonProps
}: ThemeToggleProps) {
  const nextTheme: ThemeName = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className={joinClassNames("atelier-theme-toggle", className)}
      data-state={theme}
      aria-label={nextTheme === "dark" ? switchToDarkLabel : switchToLightLabel}
      onClick={() => onThemeChange(nextTheme)}
      {...buttonProps}
    >
      {theme === "dark" ? (
        <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round">
          <circle cx="12" cy="12" r="4" />
          <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
        </svg>
      ) : (
        <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round">
          <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" />
        </svg>
      )}
    </button>
  );
}
