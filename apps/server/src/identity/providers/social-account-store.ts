import type { AtelierDatabase } from "../../database/open-database.ts";
import { lockForTheRestOfTransaction } from "../../database/transaction-lock.ts";
import type { ProviderProfile } from "./social-providers.ts";

export type SocialAccount = { id: string; userId: string; provider: string; uid: string; display: string; createdAt: string; lastLoginAt: string };

/** The unique index (provider, uid) refused a second connection of the same third-party account. */
export class SocialAccountAlreadyConnectedError extends Error {
  constructor() {
    super("This third-party account is already connected to a user.");
    this.name = "SocialAccountAlreadyConnectedError";
  }
}

/**
 * Third-party accounts connected to users (allauth's `SocialAccount`).
 *
 * @example
 * const connected = await socialAccounts.findByProviderUid("google", "1048…");
 */
export function createSocialAccountStore(options: { database: AtelierDatabase }) {
  const { database } = options;
  const columns = ["id", "user_id", "provider", "uid", "display", "created_at", "last_login_at"] as const;

  function toSocialAccount(row: { id: string; user_id: string; provider: string; uid: string; display: string; created_at: string; last_login_at: string }): SocialAccount {
    return { id: row.id, userId: row.user_id, provider: row.provider, uid: row.uid, display: row.display, createdAt: row.created_at, lastLoginAt: row.last_login_at };
  }

  return {
    async findByProviderUid(provider: string, uid: string): Promise<SocialAccount | null> {
      const row = await database.selectFrom("identity_social_account").select(columns).where("provider", "=", provider).where("uid", "=", uid).executeTakeFirst();
      return row ? toSocialAccount(row) : null;
    },

    async listByUser(userId: string): Promise<SocialAccount[]> {
      const rows = await database.selectFrom("identity_social_account").select(columns).where("user_id", "=", userId).orderBy("created_at", "asc").orderBy("id", "asc").execute();
      return rows.map(toSocialAccount);
    },

    /** Connects `profile` to the user; throws `SocialAccountAlreadyConnectedError` when another user has it. */
    async connect(userId: string, provider: string, profile: ProviderProfile, now: Date): Promise<SocialAccount> {
      const row = {
        id: crypto.randomUUID(),
        user_id: userId,
        provider,
        uid: profile.uid,
        display: profile.display.slice(0, 200),
        extra_data_json: JSON.stringify(profile.extraData),
        created_at: now.toISOString(),
        last_login_at: now.toISOString(),
      };
      try {
        await database.insertInto("identity_social_account").values(row).execute();
      } catch (error) {
        if (await database.selectFrom("identity_social_account").select("id").where("provider", "=", provider).where("uid", "=", profile.uid).executeTakeFirst()) {
          throw new SocialAccountAlreadyConnectedError();
        }
        throw error;
      }
      return toSocialAccount(row);
    },

    /** Keeps what the provider sent at the latest sign-in. */
    async recordLogin(socialAccountId: string, profile: ProviderProfile, now: Date): Promise<void> {
      await database
        .updateTable("identity_social_account")
        .set({ display: profile.display.slice(0, 200), extra_data_json: JSON.stringify(profile.extraData), last_login_at: now.toISOString() })
        .where("id", "=", socialAccountId)
        .execute();
    },

    /**
     * Disconnects one of the user's third-party accounts: `last`, disconnecting nothing, when `keepTheLast` and it is
     * their only one (it may have become so since the caller looked: two disconnections sent at once); `gone` when it
     * was disconnected meanwhile.
     */
    async disconnect(userId: string, socialAccountId: string, options: { keepTheLast: boolean }): Promise<"disconnected" | "last" | "gone"> {
      return database.transaction().execute(async (transaction) => {
        await lockForTheRestOfTransaction(transaction, `identity-social-accounts:${userId}`);
        const own = await transaction.selectFrom("identity_social_account").select("id").where("user_id", "=", userId).execute();
        if (!own.some((row) => row.id === socialAccountId)) return "gone";
        if (options.keepTheLast && own.length === 1) return "last";
        await transaction.deleteFrom("identity_social_account").where("id", "=", socialAccountId).execute();
        return "disconnected";
      });
    },
  };
}

export type SocialAccountStore = ReturnType<typeof createSocialAccountStore>;
