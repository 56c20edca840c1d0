import type { Preview } from "@storybook/react";
import { applyThemeToDocument, type ThemeName } from "../src/theme-toggle/theme-core";
import "../src/styles.css";

const preview: Preview = {
  globalTypes: {
    theme: {
      description: "Colour theme of the UI kit",
      toolbar: {
        title: "Theme",
        icon: "mirror",
        items: [
          { value: "light", title: "Light" },
          { value: "dark", title: "Dark" },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: "light" },
  decorators: [
    (Story, context) => {
      applyThemeToDocument(document.documentElement, context.globals.theme === "dark" ? "dark" : ("light" satisfies ThemeName));
      return Story();
    },
  ],
};

export default preview;
