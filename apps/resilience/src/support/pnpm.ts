import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

/** The repository's root, where the deployment guide runs `pnpm backup` (`cd /opt/atelier/app`). */
export const repositoryDirectory = path.resolve(import.meta.dirname, "../../../..");

const packageManager = (JSON.parse(readFileSync(path.join(repositoryDirectory, "package.json"), "utf8")) as { packageManager: string }).packageManager;

/**
 * How to call pnpm: the one on PATH (under `pnpm test` and turbo, the pnpm running the tests), else the README's
 * `npx --yes pnpm@<the version package.json names>`.
 */
function pnpmCommand(): { file: string; leadingArguments: string[] } {
  const onPath = (process.env.PATH ?? "").split(path.delimiter).find((directory) => directory !== "" && existsSync(path.join(directory, "pnpm")));
  return onPath === undefined ? { file: "npx", leadingArguments: ["--yes", packageManager] } : { file: path.join(onPath, "pnpm"), leadingArguments: [] };
}

/**
 * Runs `pnpm <arguments>` as an operator types it, in `directory`, with only the settings given on top of this
 * process's environment (`DATABASE_URL`, `DATA_DIR` and `INIT_CWD` cleared, as an operator's shell under `sudo -u atelier` has none).
 *
 * @example
 * const { stdout } = await runPnpm(["backup", "/tmp/copy.sqlite"], { directory: repositoryDirectory, environment: { DATA_DIR: "/tmp/data" } });
 */
export async function runPnpm(commandArguments: string[], options: { directory: string; environment: Record<string, string>; timeoutMilliseconds?: number }): Promise<{ stdout: string; stderr: string }> {
  const { file, leadingArguments } = pnpmCommand();
  // INIT_CWD is where the operator typed the command; the pnpm running these tests set it to this package.
  const { INIT_CWD: _testsInitialDirectory, ...inherited } = process.env;
  return promisify(execFile)(file, [...leadingArguments, ...commandArguments], {
    cwd: options.directory,
    env: { ...inherited, DATABASE_URL: "", DATA_DIR: "", ...options.environment },
    timeout: options.timeoutMilliseconds ?? 120_000,
  });
}
