import { isValidEmailAddress } from "../mail/email-address-syntax.ts";
import type { Transaction } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { DatabaseSchema } from "../database/schema.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";

export type EmailAddress = { email: string; verified: boolean; primary: boolean };

export type UserAccount = {
  id: string;
  passwordHash: string | null;
  isActive: boolean;
  emailAddresses: EmailAddress[];
};

/** allauth's User object (API.md §0); empty values are left out. */
export type SerializedUser = { id: string; display: string; email?: string; has_usable_password: boolean };

/**
 * `createUser` found the address already someone's: another sign-up with it was created while this one was on its way
 * (the check before it and the password's hash take milliseconds). The caller answers as for an address in use.
 */
export class EmailAddressTakenError extends Error {
  constructor(readonly email: string) {
    super(`The address ${email} belongs to an account already.`);
    this.name = "EmailAddressTakenError";
  }
}

/** Lowercased and trimmed, as stored. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** An address as allauth's form takes it (`isValidEmailAddress`: Django's `EmailValidator`). */
export function isValidEmail(email: string): boolean {
  return isValidEmailAddress(email);
}

export function primaryEmailOf(account: UserAccount): string | null {
  return account.emailAddresses.find((address) => address.primary)?.email ?? account.emailAddresses[0]?.email ?? null;
}

export function serializeUser(account: UserAccount): SerializedUser {
  const email = primaryEmailOf(account);
  return {
    id: account.id,
    display: email ?? "user",
    ...(email ? { email } : {}),
    has_usable_password: account.passwordHash !== null,
  };
}

export function toEmailAddress(row: { email: string; verified: number | string; is_primary: number | string }): EmailAddress {
  return { email: row.email, verified: Number(row.verified) === 1, primary: Number(row.is_primary) === 1 };
}

export function toUserAccount(user: { id: string; password_hash: string | null; is_active: number | string }, emailAddresses: EmailAddress[]): UserAccount {
  return { id: user.id, passwordHash: user.password_hash, isActive: Number(user.is_active) === 1, emailAddresses };
}

/**
 * Users and their e-mail addresses.
 *
 * @example
 * const account = await accounts.findByEmail("anna@example.ch");
 */
export function createAccountStore(options: { database: AtelierDatabase }) {
  const { database } = options;

  async function listEmailAddresses(userId: string): Promise<EmailAddress[]> {
    const rows = await database
      .selectFrom("identity_email_address")
      .select(["email", "verified", "is_primary"])
      .where("user_id", "=", userId)
      .orderBy("is_primary", "desc")
      .orderBy("created_at", "asc")
      .orderBy("email", "asc")
      .execute();
    return rows.map(toEmailAddress);
  }

  async function findById(userId: string): Promise<UserAccount | null> {
    const user = await database.selectFrom("identity_user").select(["id", "password_hash", "is_active"]).where("id", "=", userId).executeTakeFirst();
    if (!user) {
      return null;
    }
    return toUserAccount(user, await listEmailAddresses(user.id));
  }

  /**
   * Runs `change` on the user's addresses alone: requests sent at once (marking one primary while removing it, in two
   * tabs) are checked and written one after the other, so that the user always keeps exactly one primary address.
   */
  function changeAddressesOf<Result>(userId: string, change: (transaction: Transaction<DatabaseSchema>) => Promise<Result>): Promise<Result> {
    return database.transaction().execute(async (transaction) => {
      await lockForTheRestOfTransaction(transaction, `identity-addresses:${userId}`);
      return change(transaction);
    });
  }

  async function makePrimary(transaction: Transaction<DatabaseSchema>, userId: string, email: string): Promise<void> {
    await transaction.updateTable("identity_email_address").set({ is_primary: 0 }).where("user_id", "=", userId).execute();
    await transaction.updateTable("identity_email_address").set({ is_primary: 1 }).where("user_id", "=", userId).where("email", "=", email).execute();
  }

  /** Makes the address the user's primary one; false, changing nothing, when it is no longer theirs (removed meanwhile). */
  async function setPrimaryEmail(userId: string, email: string): Promise<boolean> {
    const normalized = normalizeEmail(email);
    return changeAddressesOf(userId, async (transaction) => {
      const address = await transaction.selectFrom("identity_email_address").select("id").where("user_id", "=", userId).where("email", "=", normalized).executeTakeFirst();
      if (address === undefined) return false;
      await makePrimary(transaction, userId, normalized);
      return true;
    });
  }

  return {
    findById,
    listEmailAddresses,
    setPrimaryEmail,

    /** The account that owns an address, preferring a verified owner (allauth's `filter_users_by_email`). */
    async findByEmail(email: string): Promise<UserAccount | null> {
      const owners = await database
        .selectFrom("identity_email_address")
        .select(["user_id", "verified"])
        .where("email", "=", normalizeEmail(email))
        .orderBy("verified", "desc")
        .orderBy("created_at", "asc")
        .execute();
      const owner = owners[0];
      return owner ? findById(owner.user_id) : null;
    },

    async isEmailVerifiedByAnotherUser(email: string, userId: string | null): Promise<boolean> {
      let query = database.selectFrom("identity_email_address").select("id").where("email", "=", normalizeEmail(email)).where("verified", "=", 1);
      if (userId) {
        query = query.where("user_id", "<>", userId);
      }
      return (await query.executeTakeFirst()) !== undefined;
    },

    async isEmailInUse(email: string): Promise<boolean> {
      return (await database.selectFrom("identity_email_address").select("id").where("email", "=", normalizeEmail(email)).executeTakeFirst()) !== undefined;
    },

    /**
     * A new account whose primary address is `email`; `emailVerified`: a provider vouched for the address (third-party
     * sign-up). Throws `EmailAddressTakenError`, creating nothing, when the address is any account's already: the
     * check and the insert are one step for each address, so that sign-ups sent at once (a double click, a script)
     * make one account, not one each.
     */
    async createUser(input: { email: string; passwordHash: string | null; now: Date; emailVerified?: boolean }): Promise<UserAccount> {
      const verified = input.emailVerified === true;
      const email = normalizeEmail(input.email);
      const userId = crypto.randomUUID();
      const createdAt = input.now.toISOString();
      await database.transaction().execute(async (transaction) => {
        await lockForTheRestOfTransaction(transaction, `identity-email:${email}`);
        if ((await transaction.selectFrom("identity_email_address").select("id").where("email", "=", email).executeTakeFirst()) !== undefined) {
          throw new EmailAddressTakenError(email);
        }
        await transaction.insertInto("identity_user").values({ id: userId, password_hash: input.passwordHash, is_active: 1, created_at: createdAt }).execute();
        await transaction.insertInto("identity_email_address").values({ id: crypto.randomUUID(), user_id: userId, email, verified: verified ? 1 : 0, is_primary: 1, created_at: createdAt }).execute();
      });
      return { id: userId, passwordHash: input.passwordHash, isActive: true, emailAddresses: [{ email, verified, primary: true }] };
    },

    /** Adds an unverified address to the user's; false, adding nothing, when it is theirs already (a request sent twice at once). */
    async addEmailAddress(userId: string, email: string, now: Date): Promise<boolean> {
      const result = await database
        .insertInto("identity_email_address")
        .values({ id: crypto.randomUUID(), user_id: userId, email: normalizeEmail(email), verified: 0, is_primary: 0, created_at: now.toISOString() })
        .onConflict((conflict) => conflict.columns(["user_id", "email"]).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** Marks an address verified; it becomes primary when the user has no verified primary address yet. */
    async markEmailVerified(userId: string, email: string): Promise<void> {
      const normalized = normalizeEmail(email);
      await changeAddressesOf(userId, async (transaction) => {
        const verified = await transaction.updateTable("identity_email_address").set({ verified: 1 }).where("user_id", "=", userId).where("email", "=", normalized).executeTakeFirst();
        if (Number(verified.numUpdatedRows) === 0) return;
        const primary = await transaction.selectFrom("identity_email_address").select("verified").where("user_id", "=", userId).where("is_primary", "=", 1).executeTakeFirst();
        if (primary === undefined || Number(primary.verified) !== 1) await makePrimary(transaction, userId, normalized);
      });
    },

    /**
     * Removes one of the user's addresses unless it is their primary one: `primary` when it is (it may have become so
     * since the caller looked), `gone` when it was removed meanwhile.
     */
    async removeEmailAddress(userId: string, email: string): Promise<"removed" | "primary" | "gone"> {
      const normalized = normalizeEmail(email);
      return changeAddressesOf(userId, async (transaction) => {
        const address = await transaction.selectFrom("identity_email_address").select("is_primary").where("user_id", "=", userId).where("email", "=", normalized).executeTakeFirst();
        if (address === undefined) return "gone";
        if (Number(address.is_primary) === 1) return "primary";
        await transaction.deleteFrom("identity_email_address").where("user_id", "=", userId).where("email", "=", normalized).execute();
        return "removed";
      });
    },

    async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await database.updateTable("identity_user").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
