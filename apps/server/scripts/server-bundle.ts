// How the server is compiled for `node`: one ES module per entry, npm dependencies left to node_modules (native ones
// cannot be bundled), the workspace packages (which publish their TypeScript source) compiled in. The production
// build (build-server.ts) and the throughput benchmarks (bench/run-compiled.ts) both compile with it, so the benchmarks
// measure the code `pnpm start` runs.
import path from "node:path";
import { build, type BuildResult, type Plugin } from "esbuild";
import { subtitleWorkerEntrySourcePath } from "@atelier/subtitles/node";

export const serverDirectory = path.resolve(import.meta.dirname, "..");
const subtitlesPackageDirectory = path.dirname(path.dirname(import.meta.resolve("@atelier/subtitles").replace(/^file:\/\//, "")));

/** The subtitle worker's entry, which every bundle that starts the server needs beside it as `subtitle-worker.js`. */
export const subtitleWorkerEntry = path.join(subtitlesPackageDirectory, subtitleWorkerEntrySourcePath);

/** The large-session worker's entry (decision 0077), needed beside every bundle that starts the server as `large-session-worker.js`. */
export const largeSessionWorkerEntry = path.join(serverDirectory, "src/study/large-session-worker.ts");

/**
 * Leaves the server's own npm dependencies to its node_modules (some are native), and compiles in the workspace
 * packages together with what they import: under pnpm, a bundle in apps/server cannot resolve a package's dependency
 * (saxes, of @atelier/subtitles) that the server does not depend on itself.
 */
const keepServerDependenciesExternal: Plugin = {
  name: "keep-server-dependencies-external",
  setup(builder) {
    const serverSourceDirectories = ["src", "bench"].map((directory) => path.join(serverDirectory, directory));
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:")) return { path: args.path, external: true };
      if (args.path.startsWith("@atelier/")) return undefined;
      return serverSourceDirectories.some((directory) => args.importer.startsWith(directory)) ? { path: args.path, external: true } : undefined;
    });
  },
};

/**
 * Compiles each entry (output name → TypeScript file) to `<outdir>/<name>.js` with its source map.
 *
 * @example
 * await bundleServerEntries({ main: path.join(serverDirectory, "src/main.ts"), "subtitle-worker": subtitleWorkerEntry }, path.join(serverDirectory, "dist"));
 */
export function bundleServerEntries(entryPoints: Record<string, string>, outdir: string): Promise<BuildResult<{ metafile: true }>> {
  return build({
    entryPoints,
    outdir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    outExtension: { ".js": ".js" },
    // CommonJS code compiled in (saxes) may require Node's built-in modules.
    banner: { js: 'import { createRequire as createRequireOfBundle } from "node:module"; const require = createRequireOfBundle(import.meta.url);' },
    plugins: [keepServerDependenciesExternal],
    logLevel: "warning",
    metafile: true,
  });
}
