import type { Preview } from "@storybook/react-vite";
import { applyThemeToDocument } from "@atelier/ui";
import "@atelier/ui/styles.css";

const preview: Preview = {
  // A documentation page per component, built from its stories and props.
  tags: ["autodocs"],
  globalTypes: {
    theme: {
      description: "Colour theme",
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
  parameters: {
    // Every story is an accessibility test: a violation fails `pnpm test` (and shows in the panel).
    a11y: { test: "error" },
    // The widths the site is checked at: a phone of 390 px (and the narrowest, 320 px) and a laptop of 1366 px.
    viewport: {
      options: {
        phone320: { name: "Phone, 320 px", styles: { width: "320px", height: "640px" }, type: "mobile" },
        phone390: { name: "Phone, 390 px", styles: { width: "390px", height: "844px" }, type: "mobile" },
        laptop1366: { name: "Laptop, 1366 px", styles: { width: "1366px", height: "900px" }, type: "desktop" },
      },
    },
  },
  decorators: [
    (Story, context) => {
      applyThemeToDocument(document.documentElement, context.globals.theme === "dark" ? "dark" : "light");
      return <Story />;
    },
  ],
};

export default preview;
