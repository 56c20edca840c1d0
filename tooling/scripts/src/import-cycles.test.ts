import path from "node:path";
import { fileURLToPath } from "node:url";
import madge from "madge";
import { describe, expect, it } from "vitest";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const sourceFolders = ["apps/server/src", "apps/web/app", "packages"].map((folder) => path.join(repositoryRoot, folder));

describe("given the repository's TypeScript sources", () => {
  it("should have no import circle between modules (type-only imports aside)", async () => {
    const graph = await madge(sourceFolders, {
      fileExtensions: ["ts", "tsx"],
      excludeRegExp: [/node_modules/, /\/dist\//, /\/build\//, /\.react-router\//],
      detectiveOptions: { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } },
      tsConfig: path.join(repositoryRoot, "tooling/typescript/base.json"),
    });
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(300);
    expect(graph.circular()).toEqual([]);
  }, 120_000);
});
