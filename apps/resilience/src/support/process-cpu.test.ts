import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cpuSecondsBetween, cpuSecondsOfProcess, cpuSecondsOfProcessesNamed, parseProcessStat } from "./process-cpu.ts";

/** Keeps this thread busy for `milliseconds` of wall time. */
function burn(milliseconds: number): number {
  const until = performance.now() + milliseconds;
  let sum = 0;
  while (performance.now() < until) sum += Math.sqrt(sum + 1);
  return sum;
}

describe("given a line of /proc/<pid>/stat", () => {
  it("should read the name between the first ( and the last ), and utime + stime in ticks of 1/100 s", () => {
    const line = "4242 (post (gres) x) S 1 4242 4242 0 -1 4194560 512 0 0 0 1234 56 0 0 20 0 1 0 100 0 0\n";
    expect(parseProcessStat(line)).toEqual({ name: "post (gres) x", cpuSeconds: 12.9 });
  });

  it("should answer null for anything else", () => {
    expect(parseProcessStat("")).toBeNull();
    expect(parseProcessStat("4242 (short) S 1")).toBeNull();
  });
});

describe("given this process", () => {
  it("should count the CPU time it uses", () => {
    const before = cpuSecondsOfProcess(process.pid);
    burn(300);
    const after = cpuSecondsOfProcess(process.pid);
    expect(before).not.toBeNull();
    expect((after ?? 0) - (before ?? 0)).toBeGreaterThanOrEqual(0.1);
  });

  it("should be found among the processes of its name", () => {
    const name = parseProcessStat(readFileSync(`/proc/${process.pid}/stat`, "utf8"))?.name ?? "";
    expect(cpuSecondsOfProcessesNamed(name)?.get(process.pid)).toBeGreaterThan(0);
    expect(cpuSecondsOfProcessesNamed(`${name} of no process`)?.size).toBe(0);
  });

  it("should answer null for a process that does not exist", () => {
    expect(cpuSecondsOfProcess(2 ** 30)).toBeNull();
  });
});

describe("given two readings of a set of processes", () => {
  it("should add what each used in between, a new one whole and a gone one not at all", () => {
    const before = new Map([
      [1, 1],
      [2, 5],
    ]);
    const after = new Map([
      [1, 1.5],
      [3, 0.25],
    ]);
    expect(cpuSecondsBetween(before, after)).toBe(0.75);
  });
});
