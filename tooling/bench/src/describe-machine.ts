import { execFileSync } from "node:child_process";
import os from "node:os";

export interface MachineDescription {
  cpuModel: string;
  cores: number;
  memoryBytes: number;
  nodeVersion: string;
  platform: string;
  /** The commit checked out when the report was written, or null outside a git work tree. */
  gitCommit: string | null;
  gitWorkingTree: "clean" | "modified" | "unknown";
  /** 1, 5 and 15 minute load averages when the report was written. */
  loadAverage: number[];
}

function runGit(repositoryRoot: string, gitArguments: string[]): string | null {
  try {
    return execFileSync("git", gitArguments, { cwd: repositoryRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** CPU, memory, Node and the git commit, so that figures from two runs can be compared knowingly. */
export function describeMachine(repositoryRoot: string): MachineDescription {
  const cpus = os.cpus();
  const status = runGit(repositoryRoot, ["status", "--porcelain", "--untracked-files=no"]);
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    nodeVersion: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    gitCommit: runGit(repositoryRoot, ["rev-parse", "HEAD"]),
    gitWorkingTree: status === null ? "unknown" : status === "" ? "clean" : "modified",
    loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
  };
}
