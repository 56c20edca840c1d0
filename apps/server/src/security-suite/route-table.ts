import type { Hono } from "hono";
import { apiPathPrefixes } from "../create-server.ts";

/** An endpoint the server registers: one method and one path pattern, as `app.routes` spells them. */
export type RegisteredRoute = { method: string; path: string; key: string };

/**
 * The `ALL` entries that are not endpoints: middleware added with `use()` (server-wide at `/*`, the study API's at
 * `/api/*`, the upload's body limit, the development billing pages' cache rule) and the JSON 404 that `createServer`
 * adds with `all()` under every API prefix.
 */
export const middlewareAndFallbackPaths: ReadonlySet<string> = new Set(["/*", "/api/*", "/api/upload-subtitles/*", "/dev/billing/*", ...apiPathPrefixes.map((prefix) => `${prefix}/*`)]);

export function routeKey(method: string, path: string): string {
  return `${method} ${path}`;
}

/**
 * Reads the endpoints from Hono's route table. The rule:
 * - `app.routes` lists one entry per handler, middleware included, so a path registered with a middleware and a
 *   handler (`on("POST", path, bodyLimit, handler)`) appears twice: entries with the same method and path are one
 *   endpoint.
 * - `use()` and `all()` register method `ALL`. An `ALL` entry at a path of `middlewareAndFallbackPaths` is middleware
 *   or the API 404, not an endpoint; any other `ALL` entry is an endpoint that answers every method, and is returned
 *   as `ALL` so that the matrix must say what it answers.
 *
 * @example
 * const routes = listRegisteredRoutes(app); // [{ method: "GET", path: "/site-config", key: "GET /site-config" }, …]
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any server variables
export function listRegisteredRoutes(app: Hono<any>): RegisteredRoute[] {
  const routes = new Map<string, RegisteredRoute>();
  for (const { method, path } of app.routes) {
    if (method === "ALL" && middlewareAndFallbackPaths.has(path)) continue;
    const key = routeKey(method, path);
    if (!routes.has(key)) routes.set(key, { method, path, key });
  }
  return [...routes.values()];
}
