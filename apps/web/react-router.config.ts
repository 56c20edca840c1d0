import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { listPrerenderedPaths } from "./app/prerendered-paths.ts";
import { inlineStaticPageStylesheets } from "./build-steps/inline-static-page-stylesheets.ts";
import { listClientOnlyRoutePatterns, publishClientOnlyRoutes } from "./build-steps/publish-client-only-routes.ts";

export default {
  appDirectory: "app",
  // Static HTML for every public page, a SPA fallback for the rest: see docs/decisions/0004-prerendered-site.md.
  ssr: false,
  prerender: listPrerenderedPaths,
  // After the prerender: the static pages carry their stylesheets (decision 0046), and the server learns which paths
  // are the app's client-only screens, so that every other path is a 404 (decision 0060).
  async buildEnd({ buildManifest, reactRouterConfig }) {
    const clientDirectory = path.join(reactRouterConfig.buildDirectory, "client");
    await inlineStaticPageStylesheets(clientDirectory);
    if (buildManifest === undefined) throw new Error("React Router gave no build manifest: the client-only routes cannot be listed for the server.");
    await publishClientOnlyRoutes(clientDirectory, listClientOnlyRoutePatterns(Object.values(buildManifest.routes), listPrerenderedPaths()));
  },
} satisfies Config;
