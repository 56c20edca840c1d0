import type { Config } from "@react-router/dev/config";
import { listPrerenderedPaths } from "./app/prerendered-paths.ts";

export default {
  appDirectory: "app",
  // Static HTML for every public page, a SPA fallback for the rest: see docs/decisions/0004-prerendered-site.md.
  ssr: false,
  prerender: listPrerenderedPaths,
} satisfies Config;
