import { writeFile } from "node:fs/promises";
import path from "node:path";

/** The file in the client build that tells the server which paths the app's SPA fallback answers (decision 0060). */
export const clientOnlyRoutesFileName = "__client-only-routes.json";

/** What React Router's build manifest says of a route: enough to rebuild its full path. */
export interface BuiltRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
}

function splitSegments(pathText: string): string[] {
  return pathText.split("/").filter((segment) => segment !== "");
}

/** Whether a route pattern (`/study/:groupId/config`) matches a concrete path (`/study/7/config`), case-sensitively. */
export function routePatternMatchesPath(pattern: string, concretePath: string): boolean {
  const patternSegments = splitSegments(pattern);
  const pathSegments = splitSegments(concretePath);
  return patternSegments.length === pathSegments.length && patternSegments.every((segment, index) => segment.startsWith(":") || segment === pathSegments[index]);
}

/**
 * The full path pattern of every route that renders a page and that no prerendered page serves: the paths the server
 * answers with the SPA fallback and status 200. A splat route (the app's not-found screen) is never one of them, and a
 * pattern some prerendered page matches (a painting's viewer) is the prerender's: any other path of it is a 404.
 *
 * @example
 * listClientOnlyRoutePatterns([{ id: "root", path: "" }, { id: "a", parentId: "root", path: "study/:groupId/config" }], ["/"]); // ["/study/:groupId/config"]
 */
export function listClientOnlyRoutePatterns(routes: readonly BuiltRoute[], prerenderedPaths: readonly string[]): string[] {
  const routesById = new Map(routes.map((route) => [route.id, route]));
  const parentIds = new Set(routes.flatMap((route) => (route.parentId === undefined ? [] : [route.parentId])));
  const fullPath = (route: BuiltRoute): string => {
    const parent = route.parentId === undefined ? undefined : routesById.get(route.parentId);
    const own = route.path ?? "";
    const above = parent === undefined ? "" : fullPath(parent);
    return `/${[...splitSegments(above), ...splitSegments(own)].join("/")}`;
  };
  const patterns = new Set<string>();
  for (const route of routes) {
    // A route with children and no index renders only through them (the root, the account screens' layout).
    if (parentIds.has(route.id) && !route.index) continue;
    const pattern = fullPath(route);
    if (pattern.includes("*")) continue;
    if (prerenderedPaths.some((prerenderedPath) => routePatternMatchesPath(pattern, prerenderedPath))) continue;
    patterns.add(pattern);
  }
  return [...patterns].sort();
}

/** Writes the client-only route patterns beside the built pages, where the server reads them. */
export async function publishClientOnlyRoutes(clientDirectory: string, patterns: readonly string[]): Promise<void> {
  await writeFile(path.join(clientDirectory, clientOnlyRoutesFileName), `${JSON.stringify({ patterns }, null, 2)}\n`);
}
