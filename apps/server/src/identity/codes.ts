import type { Transaction } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { DatabaseSchema, IdentityCodePurpose, IdentityCodeTable } from "../database/schema.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";
import { constantTimeEquals, createRandomToken, createUserCode, hashSecret, normalizeUserCode } from "./secrets.ts";

export type StoredCode = Pick<IdentityCodeTable, "id" | "purpose" | "user_id" | "email" | "failed_attempts" | "expires_at">;

/** A code typed in a session: `consume` makes a right code single use. */
type SessionCodeAttempt = { sessionId: string; purpose: IdentityCodePurpose; typedCode: string; now: Date; maximumAttempts: number; consume: boolean };

/** The outcome of checking a code typed by the user. */
export type CodeCheck =
  | { status: "no_process" }
  | { status: "incorrect"; attemptsExhausted: boolean }
  | { status: "correct"; code: StoredCode };

/**
 * One-time codes bound to a session (sign-in, verification and reset by code) and link keys (verification and reset
 * by link). Only HMACs are stored; every code and key can be used once.
 *
 * @example
 * const code = await codes.issueSessionCode({ purpose: "login_by_code", sessionId, userId, email, now, lifetimeSeconds: 180 });
 */
export function createCodeStore(options: { database: AtelierDatabase; secretKey: string }) {
  const { database, secretKey } = options;

  async function checkSessionCodeWithin(transaction: Transaction<DatabaseSchema>, input: SessionCodeAttempt): Promise<CodeCheck> {
    const row = await transaction
      .selectFrom("identity_code")
      .select(["id", "purpose", "user_id", "email", "failed_attempts", "expires_at", "secret_hash"])
      .where("session_id", "=", input.sessionId)
      .where("purpose", "=", input.purpose)
      .where("consumed_at", "is", null)
      .executeTakeFirst();
    if (!row || row.expires_at <= input.now.toISOString() || row.failed_attempts >= input.maximumAttempts) {
      return { status: "no_process" };
    }
    const typedHash = hashSecret(secretKey, input.purpose, normalizeUserCode(input.typedCode));
    if (!constantTimeEquals(typedHash, row.secret_hash)) {
      const failedAttempts = Number(row.failed_attempts) + 1;
      if (failedAttempts >= input.maximumAttempts) {
        await transaction.deleteFrom("identity_code").where("id", "=", row.id).execute();
        return { status: "incorrect", attemptsExhausted: true };
      }
      await transaction.updateTable("identity_code").set({ failed_attempts: failedAttempts }).where("id", "=", row.id).execute();
      return { status: "incorrect", attemptsExhausted: false };
    }
    if (input.consume) {
      const result = await transaction.updateTable("identity_code").set({ consumed_at: input.now.toISOString() }).where("id", "=", row.id).where("consumed_at", "is", null).executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        return { status: "no_process" };
      }
    }
    const { secret_hash: _secretHash, ...code } = row;
    return { status: "correct", code };
  }

  return {
    /** Replaces any earlier code of the same purpose in this session; returns the code to mail (`XXXX-XXXX`). */
    async issueSessionCode(input: { purpose: IdentityCodePurpose; sessionId: string; userId: string | null; email: string; now: Date; lifetimeSeconds: number }): Promise<string> {
      const code = createUserCode();
      await database.deleteFrom("identity_code").where("session_id", "=", input.sessionId).where("purpose", "=", input.purpose).execute();
      await database
        .insertInto("identity_code")
        .values({
          id: crypto.randomUUID(),
          purpose: input.purpose,
          kind: "code",
          secret_hash: hashSecret(secretKey, input.purpose, normalizeUserCode(code)),
          session_id: input.sessionId,
          user_id: input.userId,
          email: input.email,
          failed_attempts: 0,
          created_at: input.now.toISOString(),
          expires_at: new Date(input.now.getTime() + input.lifetimeSeconds * 1_000).toISOString(),
          consumed_at: null,
        })
        .execute();
      return code;
    },

    async findSessionCode(sessionId: string, purpose: IdentityCodePurpose, now: Date): Promise<StoredCode | null> {
      const row = await database
        .selectFrom("identity_code")
        .select(["id", "purpose", "user_id", "email", "failed_attempts", "expires_at"])
        .where("session_id", "=", sessionId)
        .where("purpose", "=", purpose)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      if (!row || row.expires_at <= now.toISOString()) {
        return null;
      }
      return row;
    },

    /**
     * Compares a typed code with the session's pending one. A wrong code counts an attempt; the last allowed wrong
     * attempt deletes the code (the flow is over). `consume` makes a right code single use.
     */
    async checkSessionCode(input: SessionCodeAttempt): Promise<CodeCheck> {
      // One check at a time per session and purpose, the count read and written in one step: guesses sent at once
      // would otherwise each read the same count and all be compared (decision 0073).
      return database.transaction().execute(async (transaction) => {
        await lockForTheRestOfTransaction(transaction, `identity-code:${input.purpose}:${input.sessionId}`);
        return checkSessionCodeWithin(transaction, input);
      });
    },

    async deleteSessionCodes(sessionId: string, purpose: IdentityCodePurpose): Promise<void> {
      await database.deleteFrom("identity_code").where("session_id", "=", sessionId).where("purpose", "=", purpose).execute();
    },

    /** A link key (43 random characters) for a verification or reset link. */
    async issueLinkKey(input: { purpose: IdentityCodePurpose; userId: string; email: string; now: Date; lifetimeSeconds: number }): Promise<string> {
      const key = createRandomToken();
      await database
        .insertInto("identity_code")
        .values({
          id: crypto.randomUUID(),
          purpose: input.purpose,
          kind: "key",
          secret_hash: hashSecret(secretKey, input.purpose, key),
          session_id: null,
          user_id: input.userId,
          email: input.email,
          failed_attempts: 0,
          created_at: input.now.toISOString(),
          expires_at: new Date(input.now.getTime() + input.lifetimeSeconds * 1_000).toISOString(),
          consumed_at: null,
        })
        .execute();
      return key;
    },

    async findLinkKey(purpose: IdentityCodePurpose, key: string, now: Date): Promise<StoredCode | null> {
      if (key.length === 0 || key.length > 200) {
        return null;
      }
      const row = await database
        .selectFrom("identity_code")
        .select(["id", "purpose", "user_id", "email", "failed_attempts", "expires_at"])
        .where("secret_hash", "=", hashSecret(secretKey, purpose, key))
        .where("kind", "=", "key")
        .where("purpose", "=", purpose)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      return row && row.expires_at > now.toISOString() ? row : null;
    },

    /** Marks a code or key used; `false` when another request used it first. */
    async consume(codeId: string, now: Date): Promise<boolean> {
      const result = await database.updateTable("identity_code").set({ consumed_at: now.toISOString() }).where("id", "=", codeId).where("consumed_at", "is", null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Ends every unused reset key and code of a user (after the password changed). */
    async deleteUserCodes(userId: string, purpose: IdentityCodePurpose): Promise<void> {
      await database.deleteFrom("identity_code").where("user_id", "=", userId).where("purpose", "=", purpose).execute();
    },
  };
}

export type CodeStore = ReturnType<typeof createCodeStore>;
