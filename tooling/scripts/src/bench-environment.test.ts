import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The `## Benchmarks` section of the README, up to the next section. */
function benchmarksSection(readme: string): string {
  const start = readme.indexOf("\n## Benchmarks\n");
  if (start === -1) throw new Error("README.md has no `## Benchmarks` section");
  const next = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, next === -1 ? undefined : next);
}

/** Environment variable names written in code spans (`NAME` or `NAME=value`). */
function environmentVariablesNamedIn(text: string): string[] {
  const names = [...text.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`/g)].map((match) => match[1] as string);
  return [...new Set(names)].sort();
}

function isPassedBy(patterns: readonly string[], name: string): boolean {
  return patterns.some((pattern) => (pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}

describe("given the README's Benchmarks section and turbo.json", () => {
  const readme = readFileSync(path.join(repositoryRoot, "README.md"), "utf8");
  const turbo = JSON.parse(readFileSync(path.join(repositoryRoot, "turbo.json"), "utf8")) as { tasks: { bench: { passThroughEnv?: string[]; env?: string[] } } };
  const passed = [...(turbo.tasks.bench.passThroughEnv ?? []), ...(turbo.tasks.bench.env ?? [])];

  it("should find the variables the section documents", () => {
    expect(environmentVariablesNamedIn(benchmarksSection(readme))).toEqual(expect.arrayContaining(["ALLAUTH_COMPARISON_URL", "BENCH_LIGHTHOUSE_RUNS", "FUZZ_RUNS"]));
  });

  // turbo runs tasks in strict environment mode: a variable it is not told to pass never reaches `pnpm bench`'s benches,
  // and `ALLAUTH_COMPARISON_URL=… pnpm bench` reported the comparison as not measured.
  it("should pass every one of them through to the bench tasks", () => {
    const notPassed = environmentVariablesNamedIn(benchmarksSection(readme)).filter((name) => !isPassedBy(passed, name));
    expect(notPassed).toEqual([]);
  });
});
