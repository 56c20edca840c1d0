import { randomInt } from "node:crypto";
import type { AuthenticatorType } from "../../config.ts";
import type { Transaction } from "kysely";
import type { AtelierDatabase } from "../../database/open-database.ts";
import type { DatabaseSchema, IdentityAuthenticatorTable } from "../../database/schema.ts";
import { lockForTheRestOfTransaction } from "../../database/transaction-lock.ts";
import { authenticatorTypeOrder } from "../flows.ts";

export type TotpData = { encryptedSecret: string; lastStep: number };
export type RecoveryCodesData = { hashes: string[]; used: boolean[]; /** The codes, encrypted, until they are shown once. */ unshown: string | null };
export type WebAuthnData = { publicKey: string; counter: number; transports: string[]; passwordless: boolean | null; userHandle: string };

export type StoredAuthenticator =
  | (Base & { type: "totp"; data: TotpData })
  | (Base & { type: "recovery_codes"; data: RecoveryCodesData })
  | (Base & { type: "webauthn"; data: WebAuthnData });

type Base = { id: string; number: number; userId: string; name: string | null; credentialId: string | null; createdAt: string; lastUsedAt: string | null };

function toAuthenticator(row: IdentityAuthenticatorTable): StoredAuthenticator {
  return {
    id: row.id,
    number: Number(row.number),
    userId: row.user_id,
    type: row.type,
    name: row.name,
    credentialId: row.credential_id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    data: JSON.parse(row.data_json),
  } as StoredAuthenticator;
}

function epochSeconds(iso: string | null): number | null {
  return iso === null ? null : new Date(iso).getTime() / 1_000;
}

/** allauth's serialization of an authenticator (never the recovery codes themselves). */
export function serializeAuthenticator(authenticator: StoredAuthenticator): Record<string, unknown> {
  const base = { type: authenticator.type, created_at: epochSeconds(authenticator.createdAt), last_used_at: epochSeconds(authenticator.lastUsedAt) };
  if (authenticator.type === "recovery_codes") {
    return { ...base, total_code_count: authenticator.data.hashes.length, unused_code_count: authenticator.data.used.filter((used) => !used).length };
  }
  if (authenticator.type === "webauthn") {
    return { ...base, id: authenticator.number, name: authenticator.name ?? "", ...(authenticator.data.passwordless === null ? {} : { is_passwordless: authenticator.data.passwordless }) };
  }
  return base;
}

/** The types a user has, in allauth's enum order (for `types` of the MFA flows). */
export function typesOf(authenticators: readonly StoredAuthenticator[]): AuthenticatorType[] {
  return authenticatorTypeOrder.filter((type) => authenticators.some((authenticator) => authenticator.type === type));
}

export type NewAuthenticator = { userId: string; type: AuthenticatorType; name?: string | null; credentialId?: string | null; data: unknown; now: Date };

/**
 * The `identity_authenticator` table.
 *
 * @example
 * const list = await store.listByUser(userId);
 */
export function createAuthenticatorStore(options: { database: AtelierDatabase }) {
  const { database } = options;

  function inTurnForUser<Result>(userId: string, change: (transaction: Transaction<DatabaseSchema>) => Promise<Result>): Promise<Result> {
    return database.transaction().execute(async (transaction) => {
      await lockForTheRestOfTransaction(transaction, `identity-authenticators:${userId}`);
      return change(transaction);
    });
  }

  async function insert(transaction: Transaction<DatabaseSchema>, input: NewAuthenticator): Promise<StoredAuthenticator> {
    const row: IdentityAuthenticatorTable = {
      id: crypto.randomUUID(),
      number: randomInt(1, 2 ** 31 - 1),
      user_id: input.userId,
      type: input.type,
      name: input.name ?? null,
      credential_id: input.credentialId ?? null,
      data_json: JSON.stringify(input.data),
      created_at: input.now.toISOString(),
      last_used_at: null,
    };
    await transaction.insertInto("identity_authenticator").values(row).execute();
    return toAuthenticator(row);
  }

  return {
    async listByUser(userId: string): Promise<StoredAuthenticator[]> {
      const rows = await database.selectFrom("identity_authenticator").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("number").execute();
      // Creation order; recovery codes are made right after the factor they back up, so they come after it on a tie.
      return rows.map(toAuthenticator).sort((left, right) => left.createdAt.localeCompare(right.createdAt) || Number(left.type === "recovery_codes") - Number(right.type === "recovery_codes"));
    },

    async findByCredentialId(credentialId: string): Promise<StoredAuthenticator | null> {
      const row = await database.selectFrom("identity_authenticator").selectAll().where("credential_id", "=", credentialId).where("type", "=", "webauthn").executeTakeFirst();
      return row ? toAuthenticator(row) : null;
    },

    /**
     * A new authenticator unless its like is there already: for TOTP and recovery codes, which a user has one of, any of
     * the type; for a security key, one with its credential. Null then, creating nothing. The check and the insert are
     * one step for each user, so that the same request sent twice at once (a double click) adds one.
     */
    async createUnlessPresent(input: NewAuthenticator): Promise<StoredAuthenticator | null> {
      return inTurnForUser(input.userId, async (transaction) => {
        const alike = transaction.selectFrom("identity_authenticator").select("id").where("type", "=", input.type);
        const present = await (input.type === "webauthn" ? alike.where("credential_id", "=", input.credentialId ?? "") : alike.where("user_id", "=", input.userId)).executeTakeFirst();
        return present === undefined ? insert(transaction, input) : null;
      });
    },

    /** A new authenticator in place of the user's of its type (new recovery codes), in turn with the user's other changes. */
    async replaceOfType(input: NewAuthenticator): Promise<StoredAuthenticator> {
      return inTurnForUser(input.userId, async (transaction) => {
        await transaction.deleteFrom("identity_authenticator").where("user_id", "=", input.userId).where("type", "=", input.type).execute();
        return insert(transaction, input);
      });
    },

    /** Deletes the user's recovery codes when no TOTP or security key is left for them to back up, in turn with the user's other changes. */
    async dropRecoveryCodesWithoutFactor(userId: string): Promise<void> {
      await inTurnForUser(userId, async (transaction) => {
        const factor = await transaction.selectFrom("identity_authenticator").select("id").where("user_id", "=", userId).where("type", "in", ["totp", "webauthn"]).executeTakeFirst();
        if (factor === undefined) await transaction.deleteFrom("identity_authenticator").where("user_id", "=", userId).where("type", "=", "recovery_codes").execute();
      });
    },

    async saveData(id: string, data: unknown): Promise<void> {
      await database.updateTable("identity_authenticator").set({ data_json: JSON.stringify(data) }).where("id", "=", id).execute();
    },

    /**
     * Replaces the data only if it is still `expected` (compare-and-set): two requests with the same TOTP code or
     * recovery code cannot both succeed.
     */
    async swapData(id: string, expected: unknown, next: unknown, now: Date): Promise<boolean> {
      const result = await database
        .updateTable("identity_authenticator")
        .set({ data_json: JSON.stringify(next), last_used_at: now.toISOString() })
        .where("id", "=", id)
        .where("data_json", "=", JSON.stringify(expected))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async markUsed(id: string, now: Date): Promise<void> {
      await database.updateTable("identity_authenticator").set({ last_used_at: now.toISOString() }).where("id", "=", id).execute();
    },

    async rename(id: string, name: string): Promise<void> {
      await database.updateTable("identity_authenticator").set({ name }).where("id", "=", id).execute();
    },

    async delete(ids: readonly string[]): Promise<void> {
      if (ids.length > 0) {
        await database.deleteFrom("identity_authenticator").where("id", "in", [...ids]).execute();
      }
    },
  };
}

export type AuthenticatorStore = ReturnType<typeof createAuthenticatorStore>;
