import { defineConfig } from "tsdown";

// Only the page script is built: the web app serves it as one file (imported with ?url&no-inline), so its imports
// must be bundled and the code minified. Everything else in the workspace reads the sources.
export default defineConfig({
  entry: { "site-shell": "src/site-shell-page-script.ts" },
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  dts: false,
  outDir: "dist",
  clean: true,
  hash: false,
  // Every import is bundled in (the site's clients, ky, valibot); only these may be, so React or another package
  // cannot slip into every content page's script unnoticed.
  deps: { alwaysBundle: [/./], onlyBundle: ["ky", "valibot"] },
});
