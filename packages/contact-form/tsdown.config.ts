import { defineConfig } from "tsdown";

// Only the two files /contact serves as they are (the web app imports them with ?url&no-inline) are built: the page
// script, with the site's clients bundled in, and the ALTCHA widget, loaded by the page script only when the server
// chose ALTCHA. Everything else in the workspace reads the sources.
export default defineConfig({
  entry: { "contact-page": "src/contact-page-script.ts", "altcha-widget": "src/altcha-widget-script.ts" },
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  dts: false,
  outDir: "dist",
  clean: true,
  hash: false,
  // A browser loads these files as they are: every import is bundled in (the site's clients, ky, valibot, ALTCHA).
  // Only these may be, so React or another package cannot slip into the page's script unnoticed.
  deps: { alwaysBundle: [/./], onlyBundle: ["ky", "valibot", "altcha"] },
});
