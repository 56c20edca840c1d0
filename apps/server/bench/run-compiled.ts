// Runs benchmarks on the server compiled as `pnpm start` runs it (scripts/server-bundle.ts), not on its source through
// tsx: tsx keeps every function's name with a helper called each time a closure is made, a cost production never pays
// (decision 0059). Usage: `tsx bench/run-compiled.ts identity-bench study-bench`, each name a file of bench/.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { resolveBenchResultsDirectory } from "@atelier/bench";
import { bundleServerEntries, largeSessionWorkerEntry, serverDirectory, subtitleWorkerEntry } from "../scripts/server-bundle.ts";

const benchNames = process.argv.slice(2);
if (benchNames.length === 0 || benchNames.some((name) => !/^[a-z-]+$/.test(name))) {
  throw new Error("Name the benchmarks to run, each a file of bench/ without its extension (identity-bench study-bench).");
}
// One level below the server's directory, as dist/ is: the server finds its package directory from there.
const buildDirectory = path.join(serverDirectory, ".bench-build");
rmSync(buildDirectory, { recursive: true, force: true });
await bundleServerEntries(
  {
    ...Object.fromEntries(benchNames.map((name) => [name, path.join(serverDirectory, "bench", `${name}.ts`)])),
    // Started by measure-throughput.ts beside the bench, and by the server's subtitle upload.
    "autocannon-runner": path.join(serverDirectory, "bench/autocannon-runner.ts"),
    "subtitle-worker": subtitleWorkerEntry,
    // Started by the server's sessions of more than 1,000 cards.
    "large-session-worker": largeSessionWorkerEntry,
  },
  buildDirectory,
);
// The compiled @atelier/bench cannot find the repository from its own place, so the results' directory is given.
const environment = { ...process.env, BENCH_RESULTS_DIR: resolveBenchResultsDirectory() };
for (const name of benchNames) {
  const run = spawnSync(process.execPath, ["--enable-source-maps", path.join(buildDirectory, `${name}.js`)], { stdio: "inherit", env: environment, cwd: serverDirectory });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
