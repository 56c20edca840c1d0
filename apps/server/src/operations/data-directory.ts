import path from "node:path";

/**
 * The settings the backup and restore commands read, as the server reads them (`DATA_DIR`, default `data/` at the
 * repository root; `DATABASE_URL`), without the rest of the configuration: an operator's shell need not hold it all.
 * `serverPackageDirectory` is apps/server, which the caller knows: this module runs from src/ and, compiled into the
 * commands, from dist/.
 */
export function readStorageSettings(environment: NodeJS.ProcessEnv, serverPackageDirectory: string): { dataDirectory: string; databaseUrl: string | null } {
  return {
    dataDirectory: path.resolve(environment.DATA_DIR || path.join(serverPackageDirectory, "..", "..", "data")),
    databaseUrl: environment.DATABASE_URL || null,
  };
}

/** A path the operator typed, relative to where they typed it (pnpm runs the script in apps/server). */
export function resolveOperatorPath(typed: string, environment: NodeJS.ProcessEnv): string {
  return path.resolve(environment.INIT_CWD ?? process.cwd(), typed);
}
