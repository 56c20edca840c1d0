import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { whileTestSchemasStayPut, type TestDatabase } from "../database/test-databases.ts";

type Row = Record<string, unknown>;
// The suite reads and writes every table by name, whatever the schema says.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table
type UntypedDatabase = Kysely<any>;

/** The tables of a test database and how they reference each other. */
export type DatabaseLayout = {
  /** Every application table, parents before children. */
  insertionOrder: readonly string[];
  /** (table, referenced table) of every foreign key. */
  foreignKeys: readonly [string, string][];
  /** PostgreSQL's unlogged tables (their writes make no WAL); none on SQLite. */
  unloggedTables: readonly string[];
};

/** Every row of every application table, rows sorted so that two snapshots of the same data are equal. */
export type DatabaseSnapshot = DatabaseLayout & { tables: ReadonlyMap<string, readonly Row[]> };

function stableRowText(row: Row): string {
  return JSON.stringify(Object.keys(row).sort().map((column) => [column, row[column]]));
}

async function listTableNames(testDatabase: TestDatabase): Promise<string[]> {
  const listTables = () => testDatabase.database.introspection.getTables();
  const tables = await (testDatabase.engine === "postgresql" ? whileTestSchemasStayPut(listTables) : listTables());
  return tables
    .filter((table) => !table.isView && (testDatabase.engine === "sqlite" || table.schema === testDatabase.postgresSchema))
    .map((table) => table.name)
    .sort();
}

/** Pairs (table, referenced table) of every foreign key, read from the engine's catalogue. */
async function listForeignKeys(testDatabase: TestDatabase, tableNames: readonly string[]): Promise<[string, string][]> {
  const database = testDatabase.database as UntypedDatabase;
  if (testDatabase.engine === "sqlite") {
    const pairs: [string, string][] = [];
    for (const tableName of tableNames) {
      const { rows } = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${tableName})`.execute(database);
      pairs.push(...rows.map((row): [string, string] => [tableName, row.table]));
    }
    return pairs;
  }
  const { rows } = await sql<{ table_name: string; referenced_table_name: string }>`
    select constraints.table_name, usage.table_name as referenced_table_name
    from information_schema.table_constraints as constraints
    join information_schema.constraint_column_usage as usage
      on usage.constraint_name = constraints.constraint_name and usage.constraint_schema = constraints.constraint_schema
    where constraints.constraint_type = 'FOREIGN KEY' and constraints.table_schema = ${testDatabase.postgresSchema ?? ""}`.execute(database);
  return rows.map((row) => [row.table_name, row.referenced_table_name]);
}

/** Tables ordered so that every table comes after the tables its foreign keys point at. */
function orderByForeignKeys(tableNames: readonly string[], foreignKeys: readonly [string, string][]): string[] {
  const ordered: string[] = [];
  const remaining = new Set(tableNames);
  while (remaining.size > 0) {
    const ready = [...remaining].filter((tableName) => foreignKeys.every(([table, referenced]) => table !== tableName || referenced === tableName || !remaining.has(referenced)));
    if (ready.length === 0) {
      throw new Error(`The security suite cannot order these tables by their foreign keys (a cycle?): ${[...remaining].join(", ")}.`);
    }
    for (const tableName of ready) {
      ordered.push(tableName);
      remaining.delete(tableName);
    }
  }
  return ordered;
}

/** Finds the tables with Kysely's introspection (so a new table is covered without an edit) and their foreign keys. */
export async function readDatabaseLayout(testDatabase: TestDatabase): Promise<DatabaseLayout> {
  const tableNames = await listTableNames(testDatabase);
  const foreignKeys = await listForeignKeys(testDatabase, tableNames);
  return { insertionOrder: orderByForeignKeys(tableNames, foreignKeys), foreignKeys, unloggedTables: await listUnloggedTables(testDatabase) };
}

async function listUnloggedTables(testDatabase: TestDatabase): Promise<string[]> {
  if (testDatabase.engine === "sqlite") return [];
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class as c join pg_namespace as n on n.oid = c.relnamespace
    where n.nspname = ${testDatabase.postgresSchema ?? ""} and c.relkind = 'r' and c.relpersistence = 'u' order by c.relname`.execute(testDatabase.database);
  return rows.map((row) => row.name);
}

/**
 * Reads every row of every table.
 *
 * @example
 * const before = await takeDatabaseSnapshot(testDatabase, await readDatabaseLayout(testDatabase));
 */
export async function takeDatabaseSnapshot(testDatabase: TestDatabase, layout: DatabaseLayout): Promise<DatabaseSnapshot> {
  const database = testDatabase.database as UntypedDatabase;
  const contents = await Promise.all(
    layout.insertionOrder.map(async (tableName) => {
      const rows = (await database.selectFrom(tableName).selectAll().execute()) as Row[];
      return [tableName, rows.sort((first, second) => (stableRowText(first) < stableRowText(second) ? -1 : 1))] as const;
    }),
  );
  return { ...layout, tables: new Map(contents) };
}

/** Columns left out of a comparison: every column of a table (`"all"`) or the named ones. */
export type IgnoredColumns = Readonly<Record<string, "all" | readonly string[]>>;

/** One SHA-256 per table, for messages that say which tables changed. */
export function hashTables(snapshot: DatabaseSnapshot, ignoredColumns: IgnoredColumns = {}): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const [tableName, rows] of snapshot.tables) {
    const ignored = ignoredColumns[tableName];
    if (ignored === "all") continue;
    const texts = rows.map((row) => stableRowText(ignored ? Object.fromEntries(Object.entries(row).filter(([column]) => !ignored.includes(column))) : row)).sort();
    hashes[tableName] = createHash("sha256").update(texts.join("\n")).digest("hex");
  }
  return hashes;
}

function assertPlainIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`The security suite only fingerprints plain lower-case names, not ${JSON.stringify(name)}.`);
  return name;
}

/** PostgreSQL's hash of a table's rows, in any order, without the `ignored` columns: an expression of one value. */
function postgresTableFingerprint(tableName: string, ignored: readonly string[] = []): string {
  const rowText = `(to_jsonb(t)${ignored.map((column) => ` - '${assertPlainIdentifier(column)}'`).join("")})::text`;
  return `(select coalesce(md5(string_agg(md5(${rowText}), ',' order by md5(${rowText}))), '') from "${assertPlainIdentifier(tableName)}" as t)`;
}

/**
 * One hash per table of its current rows (without `ignoredColumns`). SQLite is read in-process; PostgreSQL hashes on
 * the server in one statement, which keeps a comparison after every request cheap.
 */
export async function fingerprintTables(testDatabase: TestDatabase, layout: DatabaseLayout, ignoredColumns: IgnoredColumns = {}): Promise<Record<string, string>> {
  if (testDatabase.engine === "sqlite") return hashTables(await takeDatabaseSnapshot(testDatabase, layout), ignoredColumns);
  const selects = layout.insertionOrder
    .filter((tableName) => ignoredColumns[tableName] !== "all")
    .map((tableName) => {
      const ignored = ignoredColumns[tableName];
      return `select '${assertPlainIdentifier(tableName)}' as table_name, ${postgresTableFingerprint(tableName, Array.isArray(ignored) ? ignored : [])} as fingerprint`;
    });
  const { rows } = await sql.raw<{ table_name: string; fingerprint: string }>(selects.join(" union all ")).execute(testDatabase.database);
  return Object.fromEntries(rows.map((row) => [row.table_name, row.fingerprint]));
}

/**
 * A value that moves whenever anything is written: SQLite's `total_changes()` of its one connection; on PostgreSQL the
 * write-ahead log's insert position (which other schemas move too: a change means "maybe", no change means "nothing"),
 * with the fingerprint of the layout's unlogged tables, whose writes make no WAL at all.
 *
 * The insert position, not `pg_current_wal_lsn()` (the position written out to the operating system): a commit with
 * `synchronous_commit = off` stays in WAL buffers for up to three `wal_writer_delay`s, and a counter read meanwhile
 * would say nothing was written. Both mistakes made the security suite skip restoring a table and then blame the
 * next refused request for the row left over (decision 0036's amendment withdrew two changes for it).
 */
export async function readWriteCounter(testDatabase: TestDatabase, layout: DatabaseLayout): Promise<string> {
  if (testDatabase.engine === "sqlite") {
    const { rows } = await sql<{ counter: string | number }>`select total_changes() as counter`.execute(testDatabase.database);
    return String(rows[0]?.counter);
  }
  const parts = ["pg_current_wal_insert_lsn()::text", ...layout.unloggedTables.map((tableName) => postgresTableFingerprint(tableName))];
  const { rows } = await sql.raw<{ counter: string }>(`select concat_ws(':', ${parts.join(", ")}) as counter`).execute(testDatabase.database);
  return String(rows[0]?.counter);
}

/** The names of the tables whose fingerprints differ. */
export function compareFingerprints(before: Record<string, string>, after: Record<string, string>): string[] {
  const tableNames = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...tableNames].filter((tableName) => before[tableName] !== after[tableName]).sort();
}

/**
 * Puts tables back to a snapshot in one transaction: deletes their rows (children first) and inserts the snapshot's
 * rows (parents first). Tables that reference a restored table are restored too, since deleting cascades into them.
 */
export async function restoreDatabaseSnapshot(testDatabase: TestDatabase, snapshot: DatabaseSnapshot, tableNames: readonly string[] = snapshot.insertionOrder): Promise<void> {
  const database = testDatabase.database as UntypedDatabase;
  const restored = new Set(tableNames);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [table, referenced] of snapshot.foreignKeys) {
      if (restored.has(referenced) && !restored.has(table)) {
        restored.add(table);
        grown = true;
      }
    }
  }
  await database.transaction().execute(async (transaction) => {
    for (const tableName of [...snapshot.insertionOrder].reverse()) {
      if (restored.has(tableName)) await transaction.deleteFrom(tableName).execute();
    }
    for (const tableName of snapshot.insertionOrder) {
      const rows = snapshot.tables.get(tableName) ?? [];
      if (!restored.has(tableName) || rows.length === 0) continue;
      // Keeps each statement under SQLite's limit of bound parameters.
      for (let start = 0; start < rows.length; start += 50) {
        await transaction
          .insertInto(tableName)
          .values(rows.slice(start, start + 50) as Row[])
          .execute();
      }
    }
  });
}
