import { randomInt } from "node:crypto";
import type { AtelierDatabase } from "../database/open-database.ts";
import { sql } from "kysely";
import { postgresPoolOf } from "../database/postgres-pool.ts";
import { prepareQuery } from "../database/prepared-query.ts";
import { batchPerTurn } from "../database/turn-batch.ts";
import type { IdentitySessionTable } from "../database/schema.ts";
import { pruneExpiredSessions } from "./identity-retention.ts";
import { toEmailAddress, toUserAccount, type UserAccount } from "./email-addresses.ts";
import type { AuthenticationRecord, PendingState } from "./flows.ts";
import { identityTimeouts } from "./flows.ts";
import { createRandomToken, hashToken } from "./secrets.ts";

export type IdentityClient = "browser" | "app";

/** Whether a token could sign anyone in: not empty, and no longer than any the server issues (longer ones are not hashed). */
export function isPossibleSessionToken(token: string): boolean {
  return token.length > 0 && token.length <= 200;
}

/** A session as the request handlers see it; `token` is only known when this request issued it. */
export type SessionState = {
  id: string;
  number: number;
  client: IdentityClient;
  userId: string | null;
  methods: AuthenticationRecord[];
  pending: PendingState;
  ip: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
};

export type SessionListItem = { number: number; ip: string; userAgent: string; createdAt: string; lastSeenAt: string; isCurrent: boolean };

function toSessionState(row: IdentitySessionTable): SessionState {
  return {
    id: row.id,
    number: Number(row.number),
    client: row.client,
    userId: row.user_id,
    methods: JSON.parse(row.methods_json) as AuthenticationRecord[],
    pending: row.pending_json ? (JSON.parse(row.pending_json) as PendingState) : {},
    ip: row.ip,
    userAgent: row.user_agent,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

const sessionColumns = ["id", "token_hash", "number", "client", "user_id", "methods_json", "pending_json", "ip", "user_agent", "created_at", "last_seen_at", "expires_at"] as const satisfies readonly (keyof IdentitySessionTable)[];

function selectSessionsWithAccounts(database: AtelierDatabase) {
  return database
    .selectFrom("identity_session as session")
    .leftJoin("identity_user as account", "account.id", "session.user_id")
    .leftJoin("identity_email_address as address", "address.user_id", "account.id")
    // Named, not `session.*`: a prepared `select *` fails once a migration adds a column (see findGroup's query).
    .select(sessionColumns.map((column) => `session.${column}` as const))
    .select(["account.id as account_id", "account.password_hash", "account.is_active", "address.email", "address.verified", "address.is_primary"]);
}

/** A session with its user and the user's addresses, one row per address (in `listEmailAddresses`'s order). */
const findSessionWithAccount = prepareQuery("session-with-account", (database, tokenHash: string) =>
  selectSessionsWithAccounts(database).where("session.token_hash", "=", tokenHash).orderBy("address.is_primary", "desc").orderBy("address.created_at", "asc").orderBy("address.email", "asc"),
);

/** The same for several tokens at once (PostgreSQL's `= any` of an array), ordered by token and then as above. */
const findSessionsWithAccounts = prepareQuery("sessions-with-accounts", (database, tokenHashes: readonly string[]) =>
  selectSessionsWithAccounts(database)
    .where(sql<boolean>`${sql.ref("session.token_hash")} = any(${tokenHashes})`)
    .orderBy("session.token_hash")
    .orderBy("address.is_primary", "desc")
    .orderBy("address.created_at", "asc")
    .orderBy("address.email", "asc"),
);

/** Only what tells whether a session signs an active user in: no addresses, no flows (the node front's rating). */
const findSessionUser = prepareQuery("session-user", (database, tokenHash: string) =>
  database
    .selectFrom("identity_session as session")
    .leftJoin("identity_user as account", "account.id", "session.user_id")
    .select(["session.client", "session.expires_at", "account.id as account_id", "account.is_active"])
    .where("session.token_hash", "=", tokenHash),
);

type SessionRow = Awaited<ReturnType<typeof findSessionWithAccount.execute>>["rows"][number];

function serializePending(pending: PendingState): string | null {
  return Object.values(pending).some((value) => value !== undefined) ? JSON.stringify(pending) : null;
}

function lifetimeSeconds(userId: string | null): number {
  return userId ? identityTimeouts.browserSessionSeconds : identityTimeouts.anonymousSessionSeconds;
}

/**
 * Server-side sessions for browsers (cookie) and apps (`X-Session-Token`). The token is random and only its SHA-256
 * is stored; signing in always issues a new token (no session fixation).
 *
 * @example
 * const { session, token } = await sessions.create({ client: "browser", userId: null, ip, userAgent, now });
 */
export function createSessionStore(options: { database: AtelierDatabase }) {
  const { database } = options;
  // Every request of a signed-in visitor reads its session: on PostgreSQL the reads of one turn of the event loop go as
  // one statement (`batchPerTurn`); SQLite reads in this process, where a statement costs less than batching.
  const readSessionRows: (tokenHash: string) => Promise<SessionRow[]> =
    postgresPoolOf(database) === undefined
      ? async (tokenHash) => (await findSessionWithAccount.execute(database, tokenHash)).rows
      : batchPerTurn(
          async (tokenHashes: readonly string[]) => {
            const { rows } = await findSessionsWithAccounts.execute(database, [...new Set(tokenHashes)]);
            return tokenHashes.map((tokenHash) => rows.filter((row) => row.token_hash === tokenHash));
          },
          { maximumBatchSize: 100 },
        );

  async function findByTokenHash(tokenHash: string, client: IdentityClient, now: Date): Promise<{ session: SessionState; account: UserAccount | null } | null> {
    const rows = await readSessionRows(tokenHash);
    const row = rows[0];
    if (!row || row.client !== client || row.expires_at <= now.toISOString()) {
      return null;
    }
    const account = row.account_id === null ? null : toUserAccount({ id: row.account_id, password_hash: row.password_hash, is_active: row.is_active ?? 0 }, rows.flatMap((address) => (address.email === null ? [] : [toEmailAddress({ email: address.email, verified: address.verified ?? 0, is_primary: address.is_primary ?? 0 })])));
    return { session: toSessionState(row), account };
  }

  async function insert(input: { client: IdentityClient; userId: string | null; methods: AuthenticationRecord[]; pending: PendingState; ip: string; userAgent: string; now: Date }) {
    const token = createRandomToken();
    const nowText = input.now.toISOString();
    for (let attempt = 1; ; attempt += 1) {
      const row: IdentitySessionTable = {
        id: crypto.randomUUID(),
        token_hash: hashToken(token),
        // A random public id avoids a portable auto-increment; a clash (1 in 2^31) is retried.
        number: randomInt(1, 2 ** 31 - 1),
        client: input.client,
        user_id: input.userId,
        methods_json: JSON.stringify(input.methods),
        pending_json: serializePending(input.pending),
        ip: input.ip,
        user_agent: input.userAgent,
        created_at: nowText,
        last_seen_at: nowText,
        expires_at: new Date(input.now.getTime() + lifetimeSeconds(input.userId) * 1_000).toISOString(),
      };
      try {
        await database.insertInto("identity_session").values(row).execute();
        return { session: toSessionState(row), token };
      } catch (error) {
        if (attempt >= 3) {
          throw error;
        }
      }
    }
  }

  return {
    create: insert,

    /**
     * The live session of a token, or `null` when it is unknown or expired, with its user's account: `null` for a
     * session nobody signed into, or whose user is gone. One indexed read (every request of a signed-in visitor).
     */
    async findByToken(token: string, client: IdentityClient, now: Date): Promise<{ session: SessionState; account: UserAccount | null } | null> {
      return isPossibleSessionToken(token) ? findByTokenHash(hashToken(token), client, now) : null;
    },

    /** `findByToken` for a token already hashed (`hashToken`), of a length `findByToken` accepts. */
    findByTokenHash,

    /**
     * The active user a session signs in (by its token's hash, `hashToken`), or `null`: what `findByToken` followed by
     * `getAuthenticatedUser`'s check answers, in one narrow read.
     */
    async findSignedInUserId(tokenHash: string, client: IdentityClient, now: Date): Promise<string | null> {
      const row = (await findSessionUser.execute(database, tokenHash)).rows[0];
      if (!row || row.client !== client || row.expires_at <= now.toISOString() || row.account_id === null || Number(row.is_active) !== 1) return null;
      return row.account_id;
    },

    async savePending(sessionId: string, pending: PendingState): Promise<void> {
      await database.updateTable("identity_session").set({ pending_json: serializePending(pending) }).where("id", "=", sessionId).execute();
    },

    async saveMethods(sessionId: string, methods: AuthenticationRecord[]): Promise<void> {
      await database.updateTable("identity_session").set({ methods_json: JSON.stringify(methods) }).where("id", "=", sessionId).execute();
    },

    /** Gives a session a new token (sign-in, password change) and optionally a user and fresh methods. */
    async rotate(session: SessionState, changes: { userId: string; methods: AuthenticationRecord[]; pending: PendingState; now: Date; signedIn: boolean }) {
      const token = createRandomToken();
      const nowText = changes.now.toISOString();
      await database
        .updateTable("identity_session")
        .set({
          token_hash: hashToken(token),
          user_id: changes.userId,
          methods_json: JSON.stringify(changes.methods),
          pending_json: serializePending(changes.pending),
          expires_at: new Date(changes.now.getTime() + lifetimeSeconds(changes.userId) * 1_000).toISOString(),
          ...(changes.signedIn ? { created_at: nowText, last_seen_at: nowText } : {}),
        })
        .where("id", "=", session.id)
        .execute();
      return token;
    },

    async recordActivity(sessionId: string, input: { ip: string; userAgent: string; now: Date }): Promise<void> {
      await database.updateTable("identity_session").set({ ip: input.ip, user_agent: input.userAgent, last_seen_at: input.now.toISOString() }).where("id", "=", sessionId).execute();
    },

    async delete(sessionId: string): Promise<void> {
      await database.deleteFrom("identity_session").where("id", "=", sessionId).execute();
    },

    async deleteUserSessions(userId: string, options: { exceptSessionId?: string; numbers?: number[] } = {}): Promise<void> {
      let query = database.deleteFrom("identity_session").where("user_id", "=", userId);
      if (options.exceptSessionId) {
        query = query.where("id", "<>", options.exceptSessionId);
      }
      if (options.numbers) {
        if (options.numbers.length === 0) {
          return;
        }
        query = query.where("number", "in", options.numbers);
      }
      await query.execute();
    },

    async listUserSessions(userId: string, currentSessionId: string, now: Date): Promise<SessionListItem[]> {
      // The listing does not filter by expiry: the expired sessions go first, as the hourly prune would take them.
      await pruneExpiredSessions(database, now);
      const rows = await database
        .selectFrom("identity_session")
        .select(["id", "number", "ip", "user_agent", "created_at", "last_seen_at"])
        .where("user_id", "=", userId)
        .orderBy("created_at", "asc")
        .execute();
      return rows.map((row) => ({
        number: Number(row.number),
        ip: row.ip,
        userAgent: row.user_agent,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        isCurrent: row.id === currentSessionId,
      }));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
