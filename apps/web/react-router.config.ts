import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { listPrerenderedPaths } from "./app/prerendered-paths.ts";
import { inlineStaticPageStylesheets } from "./build-steps/inline-static-page-stylesheets.ts";

export default {
  appDirectory: "app",
  // Static HTML for every public page, a SPA fallback for the rest: see docs/decisions/0004-prerendered-site.md.
  ssr: false,
  prerender: listPrerenderedPaths,
  // After the prerender: the static pages carry their stylesheets (decision 0046).
  async buildEnd({ reactRouterConfig }) {
    await inlineStaticPageStylesheets(path.join(reactRouterConfig.buildDirectory, "client"));
  },
} satisfies Config;
