import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A measured value: numbers, and objects or arrays of them (a series for a curve is an array of numbers). */
export type BenchFigure = number | string | boolean | null | BenchFigure[] | { [key: string]: BenchFigure };

export type BenchFigures = { [key: string]: BenchFigure };

/** What every bench writes to `<results directory>/<name>.json`. */
export interface BenchResult {
  name: string;
  /** ISO 8601. */
  measuredAt: string;
  figures: BenchFigures;
  /** Sentences for the reader: conditions, skipped parts, caveats. */
  notes: string[];
}

export interface WriteBenchResultOptions {
  /** Defaults to `resolveBenchResultsDirectory()`. */
  directory?: string;
  /** Defaults to now. */
  measuredAt?: Date;
}

/** The files in the results directory that the report writes itself, and so never reads as bench results. */
export const REPORT_FILE_NAMES = ["report.json"] as const;

const repositoryRoot = path.resolve(import.meta.dirname, "../../..");
const benchNamePattern = /^[a-z0-9][a-z0-9-]*$/;

/** The repository this package belongs to (the directory holding pnpm-workspace.yaml). */
export function resolveRepositoryRoot(): string {
  return repositoryRoot;
}

/**
 * `BENCH_RESULTS_DIR` when set, otherwise `bench-results/` at the repository root.
 *
 * @example
 * resolveBenchResultsDirectory({ BENCH_RESULTS_DIR: "/tmp/run-1" }); // "/tmp/run-1"
 */
export function resolveBenchResultsDirectory(environment: Record<string, string | undefined> = process.env): string {
  const configured = environment.BENCH_RESULTS_DIR;
  return configured === undefined || configured === "" ? path.join(repositoryRoot, "bench-results") : path.resolve(configured);
}

/**
 * Writes one bench's figures as `<directory>/<name>.json` and returns the file's path.
 *
 * @example
 * writeBenchResult({ name: "subtitles", figures: { parse: { cues: [250, 1000], warmMilliseconds: [1.2, 4.8] } }, notes: [] });
 */
export function writeBenchResult(
  result: { name: string; figures: BenchFigures; notes?: string[] },
  options: WriteBenchResultOptions = {},
): string {
  if (!benchNamePattern.test(result.name)) {
    throw new Error(`Bench name "${result.name}" is not a file name; the calling bench must use lowercase letters, digits and dashes.`);
  }
  const directory = options.directory ?? resolveBenchResultsDirectory();
  const written: BenchResult = {
    name: result.name,
    measuredAt: (options.measuredAt ?? new Date()).toISOString(),
    figures: result.figures,
    notes: result.notes ?? [],
  };
  mkdirSync(directory, { recursive: true });
  const filePath = path.join(directory, `${result.name}.json`);
  writeFileSync(filePath, `${JSON.stringify(written, null, 2)}\n`);
  return filePath;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks one file's text against the shared shape; a result, never a throw, so one bad file does not stop the report. */
export function parseBenchResult(text: string, source: string): { status: "ok"; result: BenchResult } | { status: "error"; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { status: "error", error: `${source} is not JSON (${(error as Error).message}).` };
  }
  if (!isPlainObject(value)) return { status: "error", error: `${source} is not a JSON object.` };
  if (typeof value.name !== "string" || value.name === "") return { status: "error", error: `${source} has no "name" string.` };
  if (typeof value.measuredAt !== "string" || Number.isNaN(Date.parse(value.measuredAt))) {
    return { status: "error", error: `${source} has no "measuredAt" ISO date.` };
  }
  if (!isPlainObject(value.figures)) return { status: "error", error: `${source} has no "figures" object.` };
  const notes = value.notes ?? [];
  if (!Array.isArray(notes) || !notes.every((note) => typeof note === "string")) {
    return { status: "error", error: `${source} has "notes" that are not a list of strings.` };
  }
  return { status: "ok", result: { name: value.name, measuredAt: value.measuredAt, figures: value.figures as BenchFigures, notes } };
}

/** Every `*.json` bench result in a directory (sorted by name), and a sentence for each file that could not be read. */
export function readBenchResults(directory: string): { results: BenchResult[]; problems: string[] } {
  let fileNames: string[];
  try {
    fileNames = readdirSync(directory);
  } catch {
    return { results: [], problems: [`${directory} does not exist; run the benches first.`] };
  }
  const results: BenchResult[] = [];
  const problems: string[] = [];
  for (const fileName of fileNames.filter((name) => name.endsWith(".json") && !(REPORT_FILE_NAMES as readonly string[]).includes(name)).sort()) {
    const parsed = parseBenchResult(readFileSync(path.join(directory, fileName), "utf8"), fileName);
    if (parsed.status === "ok") results.push(parsed.result);
    else problems.push(parsed.error);
  }
  results.sort((left, right) => left.name.localeCompare(right.name));
  return { results, problems };
}
