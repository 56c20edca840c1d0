// Compiles the server for production: one ES module per entry in dist/, run by plain `node` (no TypeScript runner):
// the server, its subtitle worker, and the operator's `pnpm backup` and `pnpm restore`.
// npm dependencies stay in node_modules (native ones cannot be bundled); the workspace packages, which publish their
// TypeScript source, are compiled in.
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { subtitleWorkerEntrySourcePath } from "@atelier/subtitles/node";

const serverDirectory = path.resolve(import.meta.dirname, "..");
const distDirectory = path.join(serverDirectory, "dist");
const subtitlesPackageDirectory = path.dirname(path.dirname(import.meta.resolve("@atelier/subtitles").replace(/^file:\/\//, "")));

/**
 * Leaves the server's own npm dependencies to its node_modules (some are native), and compiles in the workspace
 * packages together with what they import: under pnpm, apps/server/dist cannot resolve a package's dependency
 * (saxes, of @atelier/subtitles) that the server does not depend on itself.
 */
const keepServerDependenciesExternal: Plugin = {
  name: "keep-server-dependencies-external",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@atelier/") || args.path.startsWith("node:")) return args.path.startsWith("node:") ? { path: args.path, external: true } : undefined;
      return args.importer.startsWith(path.join(serverDirectory, "src")) ? { path: args.path, external: true } : undefined;
    });
  },
};

const subtitleWorkerEntry = path.join(subtitlesPackageDirectory, subtitleWorkerEntrySourcePath);
if (!existsSync(subtitleWorkerEntry)) {
  throw new Error(`The subtitle worker's entry ${subtitleWorkerEntry} is missing; @atelier/subtitles must export the path of its worker entry.`);
}

rmSync(distDirectory, { recursive: true, force: true });
const startedAt = performance.now();
const result = await build({
  entryPoints: {
    main: path.join(serverDirectory, "src/main.ts"),
    "subtitle-worker": subtitleWorkerEntry,
    backup: path.join(serverDirectory, "scripts/backup.ts"),
    restore: path.join(serverDirectory, "scripts/restore.ts"),
  },
  outdir: distDirectory,
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
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"));
const summary = outputs.map(([file, output]) => `${path.relative(serverDirectory, file)} ${(output.bytes / 1024).toFixed(0)} KB`).join(", ");
console.info(`@atelier/server: compiled ${summary} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`);
