import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { index: "src/index.ts", "react/index": "src/react/index.ts" },
  format: "esm",
  platform: "neutral",
  dts: true,
  outDir: "dist",
  clean: true,
  // The workspace resolves the sources; pnpm's pack and publish swap in publishConfig.exports, which points at dist.
  exports: { devExports: true },
});
