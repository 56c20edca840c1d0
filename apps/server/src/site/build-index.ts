import fs from "node:fs/promises";
import path from "node:path";

/** Every file of the web build, by its path relative to the build folder with `/` separators. */
export type BuildIndex = { status: "missing" } | { status: "ready"; files: ReadonlySet<string> };

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
    return { status: "ready", files };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") {
      return { status: "missing" };
    }
    throw error;
  }
}
