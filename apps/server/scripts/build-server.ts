// Compiles the server for production: one ES module per entry in dist/, run by plain `node` (no TypeScript runner):
// the server, its subtitle and large-session workers, and the operator's `pnpm backup` and `pnpm restore`.
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { bundleServerEntries, largeSessionWorkerEntry, serverDirectory, subtitleWorkerEntry } from "./server-bundle.ts";

const distDirectory = path.join(serverDirectory, "dist");

if (!existsSync(subtitleWorkerEntry)) {
  throw new Error(`The subtitle worker's entry ${subtitleWorkerEntry} is missing; @atelier/subtitles must export the path of its worker entry.`);
}

rmSync(distDirectory, { recursive: true, force: true });
const startedAt = performance.now();
const result = await bundleServerEntries(
  {
    main: path.join(serverDirectory, "src/main.ts"),
    "subtitle-worker": subtitleWorkerEntry,
    "large-session-worker": largeSessionWorkerEntry,
    backup: path.join(serverDirectory, "scripts/backup.ts"),
    restore: path.join(serverDirectory, "scripts/restore.ts"),
  },
  distDirectory,
);
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"));
const summary = outputs.map(([file, output]) => `${path.relative(serverDirectory, file)} ${(output.bytes / 1024).toFixed(0)} KB`).join(", ");
console.info(`@atelier/server: compiled ${summary} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`);
