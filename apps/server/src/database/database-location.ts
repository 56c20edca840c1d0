/** Where a database lives, as `openDatabase` takes it: enough for another thread to open it again. */
export type DatabaseLocation = { databaseUrl: string | null; dataDirectory: string; postgresSearchPath?: string };

const locations = new WeakMap<object, DatabaseLocation>();
const closeHooks = new WeakMap<object, (() => Promise<void>)[]>();

/** For `openDatabase`: where the database it opened lives. */
export function registerDatabaseLocation(database: object, location: DatabaseLocation): void {
  locations.set(database, { ...location });
}

/** Where a database opened by `openDatabase` lives; `undefined` for any other (a transaction, say). */
export function databaseLocationOf(database: object): DatabaseLocation | undefined {
  return locations.get(database);
}

/**
 * Runs `hook` when the database is closed, before its own connections close: another thread's connection to the same
 * database must not outlive it (a PostgreSQL test schema is dropped after, a SQLite test folder removed).
 */
export function beforeDatabaseCloses(database: object, hook: () => Promise<void>): void {
  const hooks = closeHooks.get(database) ?? [];
  hooks.push(hook);
  closeHooks.set(database, hooks);
}

/** For `openDatabase`'s `close`: runs the hooks registered with `beforeDatabaseCloses`, once. */
export async function runBeforeCloseHooks(database: object): Promise<void> {
  const hooks = closeHooks.get(database) ?? [];
  closeHooks.delete(database);
  await Promise.all(hooks.map((hook) => hook()));
}
