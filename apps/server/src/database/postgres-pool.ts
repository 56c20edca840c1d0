import type pg from "pg";

/** The pool behind each PostgreSQL database `openDatabase` opened. */
const postgresPools = new WeakMap<object, pg.Pool>();

/** For `openDatabase`: the pool of a PostgreSQL database, for the paths that run on the driver itself. */
export function registerPostgresPool(database: object, pool: pg.Pool): void {
  postgresPools.set(database, pool);
}

/** The pool of a PostgreSQL database opened by `openDatabase`; `undefined` on SQLite and for a transaction. */
export function postgresPoolOf(database: object): pg.Pool | undefined {
  return postgresPools.get(database);
}
