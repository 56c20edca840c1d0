import fs from "node:fs/promises";
import path from "node:path";
import * as v from "valibot";

/** The file in which the web build lists its client-only routes (apps/web/build-steps/publish-client-only-routes.ts). */
export const clientOnlyRoutesFileName = "__client-only-routes.json";

/**
 * Every file of the web build, by its path relative to the build folder with `/` separators, and the route patterns the
 * build says its SPA fallback serves (absent when the build does not say).
 */
export type BuildIndex = { status: "missing" } | { status: "ready"; files: ReadonlySet<string>; clientOnlyRoutePatterns?: readonly string[] };

const clientOnlyRoutesSchema = v.object({ patterns: v.array(v.pipe(v.string(), v.startsWith("/"))) });

async function readClientOnlyRoutePatterns(buildDirectory: string): Promise<readonly string[]> {
  const filePath = path.join(buildDirectory, clientOnlyRoutesFileName);
  const text = await fs.readFile(filePath, "utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${filePath} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const result = v.safeParse(clientOnlyRoutesSchema, parsed);
  if (!result.success) throw new Error(`${filePath} is not a list of route patterns: ${v.summarize(result.issues)}`);
  return result.output.patterns;
}

/**
 * Lists the files of the web build once. Serving only listed files makes lookups case-sensitive on every
 * file system and rules out path traversal: a path that is not in the list is never opened.
 */
export async function readBuildIndex(buildDirectory: string): Promise<BuildIndex> {
  try {
    const entries = await fs.readdir(buildDirectory, { recursive: true, withFileTypes: true });
    const files = new Set<string>();
    for (const entry of entries) {
      if (entry.isFile()) {
        files.add(path.relative(buildDirectory, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
      }
    }
    if (!files.has(clientOnlyRoutesFileName)) return { status: "ready", files };
    // The list is the server's to read, not a page to serve.
    files.delete(clientOnlyRoutesFileName);
    return { status: "ready", files, clientOnlyRoutePatterns: await readClientOnlyRoutePatterns(buildDirectory) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") {
      return { status: "missing" };
    }
    throw error;
  }
}
