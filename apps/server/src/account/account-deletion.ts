import type { AtelierDatabase } from "../database/open-database.ts";
import { inTransactionRetryingConflicts } from "../database/transaction-conflicts.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";
import { composeMail } from "../identity/identity-mail.ts";
import type { Mailer } from "../mail/mailer.ts";
import { logger } from "../logging/logger.ts";
import { progressLockKey } from "../study/rating-store.ts";

export const signInToDeleteAccountMessage = "Please sign in to delete your account.";

/**
 * Deletes one user and everything that is theirs, in one transaction (issue 18): the subtitle groups they own
 * (public ones too) with their pairs and everyone's progress and hidden pairs on them, their own progress and hidden
 * pairs elsewhere, their sessions (every device is signed out), codes, second factors, third-party links, e-mail
 * addresses and security events, and the user. Billing records stay: they are transaction records that Swiss tax
 * rules keep about 10 years (privacy policy §5), and they hold no address. The same locks as uploads and ratings,
 * so that no upload or rating of this user lands half-way. Answers whether the user was there to delete (a deletion
 * sent twice at once finds it gone the second time).
 *
 * @example
 * await deleteAccount(database, user.id);
 */
export async function deleteAccount(database: AtelierDatabase, userId: string): Promise<boolean> {
  const learnerKey = `user:${userId}`;
  // Its films' records and pairs, deleted in the tables' order, may meet ratings' taken in theirs: see decision 0081.
  return inTransactionRetryingConflicts(database, async (transaction) => {
    await lockForTheRestOfTransaction(transaction, `private-decks:${userId}`);
    await lockForTheRestOfTransaction(transaction, progressLockKey(learnerKey));
    const ownGroups = transaction.selectFrom("subtitle_group").select("id").where("owner_id", "=", userId);
    await transaction.deleteFrom("study_progress").where("group_id", "in", ownGroups).execute();
    await transaction.deleteFrom("study_hidden_pair").where("group_id", "in", ownGroups).execute();
    await transaction.deleteFrom("subtitle_pair").where("group_id", "in", ownGroups).execute();
    await transaction.deleteFrom("subtitle_group").where("owner_id", "=", userId).execute();
    await transaction.deleteFrom("study_progress").where("learner_key", "=", learnerKey).execute();
    await transaction.deleteFrom("study_hidden_pair").where("learner_key", "=", learnerKey).execute();
    await transaction.deleteFrom("identity_code").where("user_id", "=", userId).execute();
    await transaction.deleteFrom("identity_session").where("user_id", "=", userId).execute();
    await transaction.deleteFrom("identity_authenticator").where("user_id", "=", userId).execute();
    await transaction.deleteFrom("identity_social_account").where("user_id", "=", userId).execute();
    await transaction.deleteFrom("account_security_event").where("user_id", "=", userId).execute();
    await transaction.deleteFrom("identity_email_address").where("user_id", "=", userId).execute();
    const deletedUser = await transaction.deleteFrom("identity_user").where("id", "=", userId).executeTakeFirst();
    return Number(deletedUser.numDeletedRows) === 1;
  });
}

/** The last mail: the account is gone, and what that means. Its failure is logged; the deletion stands. */
export async function sendAccountDeletedMail(mailer: Mailer, email: string): Promise<void> {
  const result = await mailer.sendMail(
    composeMail(email, "Your Atelier account was deleted", [
      { text: "Your Atelier account has been deleted, as you asked." },
      {
        text: "Your e-mail addresses, sessions, second factors, connected accounts, the subtitle groups you uploaded with their flashcards, and your study progress are gone. Any subscription was cancelled. Records of payments are kept as Swiss tax rules require.",
      },
      { text: "You may sign up again with this address at any time. If you did not ask for this, please write to us through the contact page." },
    ]),
  );
  if (result.status === "error") logger.error({ err: result.error }, `The account-deleted mail to ${email} could not be sent.`);
}
