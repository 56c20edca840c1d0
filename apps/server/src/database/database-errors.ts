/** How long a client should wait before retrying a request that found the database away (`Retry-After`, seconds). */
export const databaseUnavailableRetryAfterSeconds = 5;

export const databaseUnavailableMessage = "The database is unavailable for a moment. Please try again in a few seconds.";

// Errors of the socket to PostgreSQL: the server is down, restarting, or out of reach.
const unavailableSocketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);
// SQLSTATE class 08 (connection exception) and these of class 57 (operator intervention); see PostgreSQL's errcodes.
const unavailablePostgresCodes = new Set(["57P01", "57P02", "57P03", "53300"]);
// SQLite: another process holds the lock past busy_timeout, or the file cannot be opened (its folder was removed).
const unavailableSqliteCodes = new Set(["SQLITE_BUSY", "SQLITE_CANTOPEN"]);
// node-postgres reports a dropped connection or a checkout that timed out with messages only, no code.
const unavailablePostgresMessages = [
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
  "timeout exceeded when trying to connect",
];

/** An error's `code` when it is text (Node's, PostgreSQL's SQLSTATE, SQLite's). */
export function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** The error, its `cause`s and, for an `AggregateError` (one try per address of a host name), each inner error. */
export function errorChainOf(error: unknown): object[] {
  const chain: object[] = [];
  const pending: unknown[] = [error];
  while (pending.length > 0 && chain.length < 20) {
    const next = pending.shift();
    if (typeof next !== "object" || next === null || chain.includes(next)) continue;
    chain.push(next);
    if (next instanceof Error) pending.push(next.cause);
    if (next instanceof AggregateError) pending.push(...(next.errors as unknown[]));
  }
  return chain;
}

/**
 * Whether an error means the database is away for now (PostgreSQL down, restarting or unreachable; SQLite locked or
 * its file gone) rather than a bug: such a request is answered 503 with `Retry-After`, not 500.
 *
 * @example
 * if (isDatabaseUnavailableError(error)) return c.json({ message: databaseUnavailableMessage }, 503);
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  return errorChainOf(error).some((candidate) => {
    const code = codeOf(candidate);
    if (code !== undefined && (unavailableSocketCodes.has(code) || unavailablePostgresCodes.has(code) || unavailableSqliteCodes.has(code) || code.startsWith("08"))) {
      return true;
    }
    const message = candidate instanceof Error ? candidate.message : "";
    return unavailablePostgresMessages.some((known) => message.startsWith(known));
  });
}

/** Where the server looks for its database, as `loadConfiguration` returns it. */
export type DatabaseSettings = { databaseUrl: string | null; dataDirectory: string };

function postgresAddressOf(databaseUrl: string): { host: string; port: string; databaseName: string } {
  try {
    const url = new URL(databaseUrl);
    return { host: url.hostname || "localhost", port: url.port || "5432", databaseName: decodeURIComponent(url.pathname.slice(1)) || url.username || "postgres" };
  } catch {
    return { host: "localhost", port: "5432", databaseName: "postgres" };
  }
}

function describePostgresStartupFailure(codes: Set<string>, messages: string[], databaseUrl: string): string | null {
  const { host, port, databaseName } = postgresAddressOf(databaseUrl);
  const at = `${host}:${port}`;
  if (codes.has("3D000")) {
    return `The database "${databaseName}" named in DATABASE_URL does not exist on the PostgreSQL server at ${at}; create it (createdb ${databaseName}) or correct DATABASE_URL.`;
  }
  if (codes.has("28P01") || codes.has("28000")) {
    return `The PostgreSQL server at ${at} refused the user or password in DATABASE_URL; correct them in DATABASE_URL.`;
  }
  if (codes.has("ENOTFOUND") || codes.has("EAI_AGAIN")) {
    return `The host name "${host}" in DATABASE_URL could not be found; correct the host in DATABASE_URL.`;
  }
  if (codes.has("ECONNREFUSED")) {
    return `No PostgreSQL server answers at ${at}, the host and port in DATABASE_URL; start PostgreSQL or correct DATABASE_URL.`;
  }
  if (codes.has("57P03")) {
    return `The PostgreSQL server at ${at} (DATABASE_URL) is starting up or shutting down; start the server again once it accepts connections.`;
  }
  if (["ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET"].some((code) => codes.has(code)) || messages.some((message) => message.startsWith("Connection terminated") || message.startsWith("timeout exceeded"))) {
    return `The PostgreSQL server at ${at}, the host and port in DATABASE_URL, could not be reached; check that it is running and reachable from here, or correct DATABASE_URL.`;
  }
  return null;
}

function describeSqliteStartupFailure(codes: Set<string>, dataDirectory: string): string | null {
  if (["EACCES", "EPERM", "ENOTDIR", "EEXIST", "EROFS", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM"].some((code) => codes.has(code))) {
    return `The SQLite database cannot be created or written in DATA_DIR (${dataDirectory}); set DATA_DIR to a folder this user may create and write, or fix its permissions.`;
  }
  if (codes.has("ENOSPC") || codes.has("SQLITE_FULL")) {
    return `The disk holding DATA_DIR (${dataDirectory}) is full; free some space or set DATA_DIR to another folder.`;
  }
  if (codes.has("SQLITE_NOTADB") || codes.has("SQLITE_CORRUPT")) {
    return `The file atelier.sqlite in DATA_DIR (${dataDirectory}) is not a readable SQLite database; restore it from a backup or set DATA_DIR to another folder.`;
  }
  return null;
}

/**
 * One sentence naming the setting to fix when opening or migrating the database failed at start (PostgreSQL
 * unreachable or missing, DATA_DIR not writable), or `null` for any other error, which is a bug to report.
 *
 * @example
 * const problem = describeDatabaseStartupFailure(error, configuration);
 * if (problem) { console.error(problem); process.exit(1); }
 */
export function describeDatabaseStartupFailure(error: unknown, settings: DatabaseSettings): string | null {
  const chain = errorChainOf(error);
  const codes = new Set(chain.map(codeOf).filter((code) => code !== undefined));
  if (settings.databaseUrl) {
    const messages = chain.map((candidate) => (candidate instanceof Error ? candidate.message : ""));
    return describePostgresStartupFailure(codes, messages, settings.databaseUrl);
  }
  return describeSqliteStartupFailure(codes, settings.dataDirectory);
}
