import { readdirSync, readFileSync } from "node:fs";

/**
 * Linux's `/proc/<pid>/stat` counts CPU time in clock ticks of `USER_HZ`, which the kernel's interface fixes at 100 a
 * second whatever the kernel's own tick rate.
 */
const ticksPerSecond = 100;

/**
 * The process name and the user and system CPU seconds of one `/proc/<pid>/stat` line, or null when it is not one.
 * The name is between the first "(" and the last ")": it may hold spaces and parentheses itself.
 *
 * @example
 * parseProcessStat("4242 (postgres) S 1 4242 …"); // { name: "postgres", cpuSeconds: 12.34 }
 */
export function parseProcessStat(line: string): { name: string; cpuSeconds: number } | null {
  const nameStart = line.indexOf("(");
  const nameEnd = line.lastIndexOf(")");
  if (nameStart < 0 || nameEnd < nameStart) return null;
  // After the name: state (field 3) … utime (field 14) and stime (field 15).
  const fields = line.slice(nameEnd + 2).trim().split(/\s+/);
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  if (!Number.isFinite(userTicks) || !Number.isFinite(systemTicks)) return null;
  return { name: line.slice(nameStart + 1, nameEnd), cpuSeconds: (userTicks + systemTicks) / ticksPerSecond };
}

function readStat(pid: string | number): { name: string; cpuSeconds: number } | null {
  try {
    return parseProcessStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

/** CPU seconds a process has used so far, or null where there is no `/proc` (not Linux) or no such process. */
export function cpuSecondsOfProcess(pid: number): number | null {
  return readStat(pid)?.cpuSeconds ?? null;
}

/** Per process id, the CPU seconds so far of every process of this machine named `name` (PostgreSQL's are `postgres`). */
export function cpuSecondsOfProcessesNamed(name: string): Map<number, number> | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  const seconds = new Map<number, number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat?.name === name) seconds.set(Number(entry), stat.cpuSeconds);
  }
  return seconds;
}

/**
 * The CPU seconds used between two readings of `cpuSecondsOfProcessesNamed`: a process found only in the second counts
 * whole (it started in between); one gone by the second is lost, so the figure is a floor.
 */
export function cpuSecondsBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let seconds = 0;
  for (const [pid, secondsAfter] of after) seconds += Math.max(0, secondsAfter - (before.get(pid) ?? 0));
  return seconds;
}
