import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseBenchResult, readBenchResults, resolveBenchResultsDirectory, resolveRepositoryRoot, writeBenchResult } from "./bench-result.ts";

describe("given no BENCH_RESULTS_DIR", () => {
  it("should write to bench-results at the repository root", () => {
    expect(resolveBenchResultsDirectory({})).toBe(path.join(resolveRepositoryRoot(), "bench-results"));
    expect(readFileSync(path.join(resolveRepositoryRoot(), "pnpm-workspace.yaml"), "utf8")).toContain("tooling/*");
  });

  it("should use BENCH_RESULTS_DIR when it is set", () => {
    expect(resolveBenchResultsDirectory({ BENCH_RESULTS_DIR: "/tmp/run-1" })).toBe("/tmp/run-1");
  });
});

describe("given a results directory", () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-result-test-"));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it("should write <name>.json with the shared shape", () => {
    const filePath = writeBenchResult({ name: "subtitles", figures: { parse: { cues: [250], warmMilliseconds: [1.5] } } }, { directory, measuredAt: new Date("2026-05-04T10:00:00Z") });
    expect(filePath).toBe(path.join(directory, "subtitles.json"));
    expect(JSON.parse(readFileSync(filePath, "utf8"))).toEqual({ name: "subtitles", measuredAt: "2026-05-04T10:00:00.000Z", figures: { parse: { cues: [250], warmMilliseconds: [1.5] } }, notes: [] });
  });

  it("should refuse a name that is not a file name", () => {
    expect(() => writeBenchResult({ name: "../escape", figures: {} }, { directory })).toThrow(/lowercase letters, digits and dashes/);
  });

  it("should read every result but the report, and describe the files it cannot read", () => {
    writeBenchResult({ name: "study", figures: { pairCount: 20000 } }, { directory });
    writeBenchResult({ name: "identity", figures: {} }, { directory });
    writeFileSync(path.join(directory, "report.json"), "{}");
    writeFileSync(path.join(directory, "broken.json"), "{ not json");
    writeFileSync(path.join(directory, "scaling.svg"), "<svg/>");
    const { results, problems } = readBenchResults(directory);
    expect(results.map((result) => result.name)).toEqual(["identity", "study"]);
    expect(problems).toEqual([expect.stringMatching(/^broken\.json is not JSON/)]);
  });

  it("should say so when the directory does not exist", () => {
    expect(readBenchResults(path.join(directory, "absent")).problems[0]).toMatch(/does not exist; run the benches first/);
  });
});

describe("parseBenchResult", () => {
  it("should accept a result without notes", () => {
    expect(parseBenchResult('{"name":"x","measuredAt":"2026-05-04T10:00:00Z","figures":{}}', "x.json")).toEqual({ status: "ok", result: { name: "x", measuredAt: "2026-05-04T10:00:00Z", figures: {}, notes: [] } });
  });

  it("should name the missing field", () => {
    expect(parseBenchResult('{"name":"x","measuredAt":"yesterday","figures":{}}', "x.json")).toEqual({ status: "error", error: 'x.json has no "measuredAt" ISO date.' });
    expect(parseBenchResult('{"name":"x","measuredAt":"2026-05-04T10:00:00Z","figures":[]}', "x.json")).toEqual({ status: "error", error: 'x.json has no "figures" object.' });
  });
});
