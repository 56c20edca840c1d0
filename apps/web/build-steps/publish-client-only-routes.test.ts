import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import { listPrerenderedPaths } from "../app/prerendered-paths.ts";
import appRoutes from "../app/routes.ts";
import { clientOnlyRoutesFileName, listClientOnlyRoutePatterns, publishClientOnlyRoutes, routePatternMatchesPath, type BuiltRoute } from "./publish-client-only-routes.ts";

/** The app's route config as the build manifest lists it: flat, each route under the root by its parent's id. */
function flattenRouteConfig(entries: readonly RouteConfigEntry[], parentId = "root"): BuiltRoute[] {
  return entries.flatMap((entry, position) => {
    const id = entry.id ?? `${parentId}/${position}`;
    return [{ id, parentId, path: entry.path, index: entry.index }, ...flattenRouteConfig(entry.children ?? [], id)];
  });
}

describe("given a route pattern", () => {
  it("should match a path segment by segment, a parameter standing for any one segment", () => {
    expect(routePatternMatchesPath("/study/:groupId/config", "/study/7/config")).toBe(true);
    expect(routePatternMatchesPath("/study/:groupId/config", "/study/7/config/")).toBe(true);
    expect(routePatternMatchesPath("/study/:groupId/config", "/study/config")).toBe(false);
    expect(routePatternMatchesPath("/study/:groupId/config", "/study/7/config/more")).toBe(false);
    expect(routePatternMatchesPath("/Licence", "/licence")).toBe(false);
  });
});

describe("given a build manifest", () => {
  const manifest: BuiltRoute[] = [
    { id: "root", path: "" },
    { id: "home", parentId: "root", index: true },
    { id: "about", parentId: "root", path: "about" },
    { id: "layout", parentId: "root" },
    { id: "dashboard", parentId: "layout", path: "dashboard" },
    { id: "login", parentId: "layout", path: "account/login" },
    { id: "config", parentId: "root", path: "study/:groupId/config" },
    { id: "viewer", parentId: "root", path: ":paintingId/image/:imageId" },
    { id: "not-found", parentId: "root", path: "*" },
  ];

  it("should list the pages no prerendered page serves, with their parents' paths, and nothing else", () => {
    expect(listClientOnlyRoutePatterns(manifest, ["/", "/about", "/bridge/image/1"])).toEqual(["/account/login", "/dashboard", "/study/:groupId/config"]);
  });

  it("should write the list where the server reads it", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "atelier-client-routes-"));
    try {
      await publishClientOnlyRoutes(directory, ["/dashboard"]);
      expect(JSON.parse(await readFile(path.join(directory, clientOnlyRoutesFileName), "utf8"))).toEqual({ patterns: ["/dashboard"] });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("given the app's routes", () => {
  const patterns = listClientOnlyRoutePatterns([{ id: "root", path: "" }, ...flattenRouteConfig(appRoutes)], listPrerenderedPaths());

  it("should serve the account, study and billing screens through the SPA fallback", () => {
    for (const pattern of ["/dashboard", "/account", "/account/login", "/account/2fa/webauthn/add", "/study/:groupId/config", "/study/:groupId/session", "/upload-subtitles", "/pricing", "/checkout-session", "/account/provider/error"]) {
      expect(patterns).toContain(pattern);
    }
  });

  it("should leave prerendered pages, the viewer and every other path to the not-found page", () => {
    for (const pattern of patterns) expect(pattern).not.toMatch(/^\/(paintings|about|contact|Licence)?$|\*|:paintingId/);
    expect(patterns.some((pattern) => routePatternMatchesPath(pattern, "/study"))).toBe(false);
    expect(patterns.some((pattern) => routePatternMatchesPath(pattern, "/account/no-such-screen"))).toBe(false);
  });
});
