import { defineConfig } from "tsdown";

// Only the viewer page's script is built: the web app serves it as one file (imported with ?url&no-inline), so its
// imports must be bundled and the code minified. Everything else in the workspace reads the sources.
export default defineConfig({
  entry: { "image-viewer-page": "src/image-viewer-page-script.ts" },
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  dts: false,
  outDir: "dist",
  clean: true,
  hash: false,
});
