import type { Statement as SqliteStatement } from "better-sqlite3";
import type { AtelierDatabase } from "../database/open-database.ts";
import { freeSqliteConnectionOf, prepareQuery, sqliteConnectionOf } from "../database/prepared-query.ts";
import type { UserAccount } from "./email-addresses.ts";
import { hashToken } from "./secrets.ts";
import { isPossibleSessionToken, type IdentityClient, type SessionState, type SessionStore } from "./sessions.ts";

type FoundSession = { session: SessionState; account: UserAccount | null };

/** How many sessions a process keeps between requests; past it, the oldest read goes first. */
export const sessionReadCacheEntries = 1_000;

const readIdentityChangeCount = prepareQuery("identity-change-count", (database) => database.selectFrom("identity_change_count").select("changes").where("id", "=", 1));

/**
 * The same read as one value from a statement of its own: 3.4 µs where the row through `prepareQuery` took 6.2 µs, on
 * every call (decision 0059). The text is this module's own, because the connection keeps one statement per text and
 * plucking changes what that statement answers.
 */
const changeCountValueSql = "select changes as identity_change_count_value from identity_change_count where id = 1";

function frozen(found: FoundSession): FoundSession {
  Object.freeze(found.session.methods);
  Object.freeze(found.session.pending);
  Object.freeze(found.session);
  if (found.account !== null) {
    Object.freeze(found.account.emailAddresses);
    Object.freeze(found.account);
  }
  return Object.freeze(found);
}

/**
 * `sessions.findByToken` for the node front's answers (decision 0052). On SQLite a session read once is kept in this
 * process and answered again while `identity_change_count` (kept by triggers on the session, user and e-mail tables,
 * whoever writes them: this process, another one, a cascade, a hand-run statement) has not moved: one read of a
 * single-row table instead of the session's join, its addresses and its JSON. A change to any identity row forgets
 * every session kept; a rating or any other write leaves them. Expiry is checked against `now` at every read, as
 * `findByToken` does. On PostgreSQL every call reads the session: several processes share it, and checking a count
 * there would cost a round trip like the read itself.
 *
 * The answers are frozen: the same objects serve every request of the session.
 *
 * @example
 * const sessionReads = createSessionReadCache({ database, sessions });
 * const found = await sessionReads.findByToken(token, "browser", clock());
 */
export function createSessionReadCache(options: { database: AtelierDatabase; sessions: Pick<SessionStore, "findByToken" | "findByTokenHash">; maximumEntries?: number }) {
  const { database, sessions } = options;
  if (sqliteConnectionOf(database) === undefined) return { findByToken: sessions.findByToken };
  const maximumEntries = options.maximumEntries ?? sessionReadCacheEntries;
  // Each session with its expiry in milliseconds: read once, where `toISOString()` at every call cost about a microsecond.
  const entries = new Map<string, { found: FoundSession; expiresAtMilliseconds: number }>();
  let changesOfEntries: number | undefined;
  let changeCountValue: SqliteStatement | undefined;

  // At once when the connection is free, without a turn of the microtask queue; while a transaction holds it, after
  // Kysely's lock, as every other read.
  const readChanges = (): number | Promise<number> => {
    const connection = freeSqliteConnectionOf(database);
    if (connection === undefined) return readIdentityChangeCount.execute(database).then(({ rows }) => Number(rows[0]?.changes));
    changeCountValue ??= connection.prepare(changeCountValueSql).pluck();
    return Number(changeCountValue.get());
  };

  async function findByToken(token: string, client: IdentityClient, now: Date): Promise<FoundSession | null> {
    if (!isPossibleSessionToken(token)) return null;
    const tokenHash = hashToken(token);
    const key = `${client} ${tokenHash}`;
    // A missing row reads as NaN, which equals nothing: every call then reads the session.
    const read = readChanges();
    const changes = typeof read === "number" ? read : await read;
    if (changes !== changesOfEntries) {
      entries.clear();
      changesOfEntries = changes;
    }
    const kept = entries.get(key);
    if (kept !== undefined) {
      if (now.getTime() < kept.expiresAtMilliseconds) return kept.found;
      entries.delete(key);
      return null;
    }
    const found = await sessions.findByTokenHash(tokenHash, client, now);
    // Kept only if no other call saw the count move meanwhile: a read begun before a change must not outlive it.
    if (found !== null && changesOfEntries === changes) {
      if (entries.size >= maximumEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { found: frozen(found), expiresAtMilliseconds: Date.parse(found.session.expiresAt) });
    }
    return found;
  }

  return { findByToken };
}
