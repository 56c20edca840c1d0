export type ThemeName = "light" | "dark";

/** The localStorage key holding the visitor's chosen theme. */
export const THEME_STORAGE_KEY = "theme";

/** The part of the Web Storage API the theme needs; `window.localStorage` fits. Written out, not `Pick<Storage, …>`, so
 * that this module compiles without the DOM's types (the server imports it through `@atelier/ui/theme-core`). */
export type ThemeStorage = { getItem(key: string): string | null; setItem(key: string, value: string): void };

/** The part of an element the theme sets; `document.documentElement` fits. */
export type ThemedElement = { setAttribute(name: string, value: string): void; style: { colorScheme: string } };

export type StoreThemeResult = { status: "stored" } | { status: "error"; error: unknown };

function isThemeName(value: unknown): value is ThemeName {
  return value === "light" || value === "dark";
}

/**
 * The stored theme, or `null` when none is stored, the value is not a theme, or storage is unavailable
 * (private browsing and blocked cookies make localStorage throw).
 *
 * @example
 * readStoredTheme(window.localStorage); // "dark"
 */
export function readStoredTheme(storage: ThemeStorage | null | undefined): ThemeName | null {
  try {
    const storedValue = storage?.getItem(THEME_STORAGE_KEY);
    return isThemeName(storedValue) ? storedValue : null;
  } catch {
    return null;
  }
}

/**
 * Remembers the chosen theme; never throws, returns whether it worked.
 *
 * @example
 * storeTheme(window.localStorage, "dark"); // { status: "stored" }
 */
export function storeTheme(storage: ThemeStorage | null | undefined, theme: ThemeName): StoreThemeResult {
  try {
    if (!storage) return { status: "error", error: new Error("No storage is available to remember the theme.") };
    storage.setItem(THEME_STORAGE_KEY, theme);
    return { status: "stored" };
  } catch (error) {
    return { status: "error", error };
  }
}

/**
 * The stored theme if there is one, otherwise the system preference.
 *
 * @example
 * resolveInitialTheme(window.localStorage, window.matchMedia("(prefers-color-scheme: dark)").matches);
 */
export function resolveInitialTheme(storage: ThemeStorage | null | undefined, prefersDark: boolean): ThemeName {
  return readStoredTheme(storage) ?? (prefersDark ? "dark" : "light");
}

/**
 * Sets `data-theme` (which styles.css keys the dark tokens on) and `color-scheme` (native controls, scrollbars).
 *
 * @example
 * applyThemeToDocument(document.documentElement, "dark");
 */
export function applyThemeToDocument(documentElement: ThemedElement, theme: ThemeName): void {
  documentElement.setAttribute("data-theme", theme);
  documentElement.style.colorScheme = theme;
}

/**
 * Inline-script source for `<head>`, before the stylesheet paints: applies the stored or preferred theme so the page
 * does not flash light first. It mirrors resolveInitialTheme and applyThemeToDocument, and survives localStorage
 * and matchMedia throwing. A Content-Security-Policy must allow it (hash or nonce).
 *
 * @example
 * <script dangerouslySetInnerHTML={{ __html: themeInitializationScript }} />
 */
export const themeInitializationScript =
  "(function(){var t=null;try{t=localStorage.getItem(" +
  JSON.stringify(THEME_STORAGE_KEY) +
  ')}catch(e){}if(t!=="light"&&t!=="dark"){try{t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}catch(e){t="light"}}' +
  'var d=document.documentElement;d.setAttribute("data-theme",t);d.style.colorScheme=t})()';
