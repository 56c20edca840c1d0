import { create } from "zustand";
import { applyThemeToDocument, storeTheme, type ThemeName } from "@atelier/ui";

interface ThemeState {
  theme: ThemeName;
  /** Reads what the inline head script already applied, once the page has hydrated. */
  synchroniseWithDocument: () => void;
  setTheme: (theme: ThemeName) => void;
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

// Prerendered HTML is always built with the light theme; the real one is read after hydration so React sees no mismatch.
export const useThemeStore = create<ThemeState>((set) => ({
  theme: "light",
  synchroniseWithDocument: () => set({ theme: document.documentElement.dataset.theme === "dark" ? "dark" : "light" }),
  setTheme: (theme) => {
    const storage = safeLocalStorage();
    if (storage) storeTheme(storage, theme);
    applyThemeToDocument(document.documentElement, theme);
    set({ theme });
  },
}));
