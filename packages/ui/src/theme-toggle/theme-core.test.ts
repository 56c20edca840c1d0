import { afterEach, describe, expect, it } from "vitest";
import {
  applyThemeToDocument,
  readStoredTheme,
  resolveInitialTheme,
  storeTheme,
  THEME_STORAGE_KEY,
  themeInitializationScript,
  type ThemeStorage,
} from "./theme-core";

function createMemoryThemeStorage(initialEntries: Record<string, string> = {}): ThemeStorage & { entries: Map<string, string> } {
  const entries = new Map(Object.entries(initialEntries));
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => {
      entries.set(key, value);
    },
  };
}

const throwingStorage: ThemeStorage = {
  getItem: () => {
    throw new DOMException("The operation is insecure.", "SecurityError");
  },
  setItem: () => {
    throw new DOMException("Quota exceeded", "QuotaExceededError");
  },
};

afterEach(() => {
  document.documentElement.removeAttribute("data-theme");
  document.documentElement.style.colorScheme = "";
});

describe("given the storage key", () => {
  it("should be 'theme'", () => {
    expect(THEME_STORAGE_KEY).toBe("theme");
  });
});

describe("given readStoredTheme", () => {
  it("should return a stored light or dark theme", () => {
    expect(readStoredTheme(createMemoryThemeStorage({ theme: "dark" }))).toBe("dark");
    expect(readStoredTheme(createMemoryThemeStorage({ theme: "light" }))).toBe("light");
  });

  it("should return null for nothing stored, an unknown value, missing storage or throwing storage", () => {
    expect(readStoredTheme(createMemoryThemeStorage())).toBeNull();
    expect(readStoredTheme(createMemoryThemeStorage({ theme: "sepia" }))).toBeNull();
    expect(readStoredTheme(undefined)).toBeNull();
    expect(readStoredTheme(throwingStorage)).toBeNull();
  });
});

describe("given storeTheme", () => {
  it("should write the theme under the storage key so it can be read back", () => {
    const storage = createMemoryThemeStorage();
    expect(storeTheme(storage, "dark")).toEqual({ status: "stored" });
    expect(storage.entries.get("theme")).toBe("dark");
    expect(readStoredTheme(storage)).toBe("dark");
  });

  it("should return an error result instead of throwing when storage fails", () => {
    const result = storeTheme(throwingStorage, "dark");
    expect(result.status).toBe("error");
    expect(storeTheme(null, "light").status).toBe("error");
  });
});

describe("given resolveInitialTheme", () => {
  it("should prefer the stored theme over the system preference", () => {
    expect(resolveInitialTheme(createMemoryThemeStorage({ theme: "light" }), true)).toBe("light");
    expect(resolveInitialTheme(createMemoryThemeStorage({ theme: "dark" }), false)).toBe("dark");
  });

  it("should fall back to the system preference", () => {
    expect(resolveInitialTheme(createMemoryThemeStorage(), true)).toBe("dark");
    expect(resolveInitialTheme(throwingStorage, false)).toBe("light");
  });
});

describe("given applyThemeToDocument", () => {
  it("should set data-theme and color-scheme on the html element", () => {
    applyThemeToDocument(document.documentElement, "dark");
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
    expect(document.documentElement.style.colorScheme).toBe("dark");
    applyThemeToDocument(document.documentElement, "light");
    expect(document.documentElement.getAttribute("data-theme")).toBe("light");
  });
});

describe("given the theme initialization script", () => {
  function runInitializationScript(localStorage: unknown, prefersDark: boolean | "throws") {
    const matchMedia = () => {
      if (prefersDark === "throws") throw new Error("matchMedia is unavailable");
      return { matches: prefersDark };
    };
    // The parameters shadow the globals the inline script reads, as they would be in a real page.
    new Function("localStorage", "matchMedia", "document", themeInitializationScript)(localStorage, matchMedia, document);
    return document.documentElement.getAttribute("data-theme");
  }

  it("should apply the stored theme", () => {
    expect(runInitializationScript(createMemoryThemeStorage({ theme: "dark" }), false)).toBe("dark");
    expect(document.documentElement.style.colorScheme).toBe("dark");
  });

  it("should fall back to the system preference when nothing valid is stored", () => {
    expect(runInitializationScript(createMemoryThemeStorage({ theme: "sepia" }), true)).toBe("dark");
    expect(runInitializationScript(createMemoryThemeStorage(), false)).toBe("light");
  });

  it("should not throw when localStorage throws, and use the system preference", () => {
    expect(runInitializationScript(throwingStorage, true)).toBe("dark");
  });

  it("should use light when both localStorage and matchMedia throw", () => {
    expect(runInitializationScript(throwingStorage, "throws")).toBe("light");
  });

  it("should be small enough to inline", () => {
    expect(themeInitializationScript.length).toBeLessThan(400);
  });
});
