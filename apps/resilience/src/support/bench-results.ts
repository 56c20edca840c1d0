import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const repositoryRoot = path.resolve(import.meta.dirname, "../../../..");

/** `BENCH_RESULTS_DIR`, or `bench-results/` at the repository root, where every benchmark leaves its JSON. */
export const benchResultsDirectory = process.env.BENCH_RESULTS_DIR ?? path.join(repositoryRoot, "bench-results");

/**
 * Writes `<benchResultsDirectory>/<name>.json` as `{ name, measuredAt, figures, notes }` and returns its path.
 *
 * @example
 * writeBenchResults("resilience-load", { sqliteP50Milliseconds: 4.1 }, ["200 learners for 60 s"]);
 */
export function writeBenchResults(name: string, figures: Record<string, number>, notes: string[]): string {
  mkdirSync(benchResultsDirectory, { recursive: true });
  const filePath = path.join(benchResultsDirectory, `${name}.json`);
  writeFileSync(filePath, `${JSON.stringify({ name, measuredAt: new Date().toISOString(), figures, notes }, null, 2)}\n`);
  return filePath;
}
