import type { Kysely } from "kysely";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { BillingSubscriptionTable, DatabaseSchema } from "../database/schema.ts";

export type StoredSubscription = BillingSubscriptionTable;

/**
 * Billing rows in our database: customers, the synced subscriptions, webhook deliveries.
 *
 * @example
 * const store = createBillingStore(database);
 */
export function createBillingStore(database: AtelierDatabase) {
  const db: Kysely<DatabaseSchema> = database;
  return {
    async findCustomerId(userId: string): Promise<string | null> {
      const row = await db.selectFrom("billing_customer").select("customer_id").where("user_id", "=", userId).executeTakeFirst();
      return row?.customer_id ?? null;
    },
    async findUserIdOfCustomer(customerId: string): Promise<string | null> {
      const row = await db.selectFrom("billing_customer").select("user_id").where("customer_id", "=", customerId).executeTakeFirst();
      return row?.user_id ?? null;
    },
    /** Stores the user's customer unless one is already stored (two tabs at once); returns the stored one. */
    async saveCustomer(input: { userId: string; provider: "stripe" | "dev"; customerId: string; now: Date }): Promise<string> {
      await db
        .insertInto("billing_customer")
        .values({ user_id: input.userId, provider: input.provider, customer_id: input.customerId, created_at: input.now.toISOString() })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      const stored = await db.selectFrom("billing_customer").select("customer_id").where("user_id", "=", input.userId).executeTakeFirstOrThrow();
      return stored.customer_id;
    },
    /**
     * Replaces every stored subscription of the customer with the provider's list, read from `readStartedAt` on, in one
     * transaction; unless a list read later is stored already (deliveries at once, decision 0074). The customer's row,
     * updated first, holds the replacements of one customer one after another. Answers whether this list was stored.
     */
    async replaceSubscriptions(customerId: string, rows: StoredSubscription[], readStartedAt: Date): Promise<boolean> {
      const readAt = readStartedAt.toISOString();
      return db.transaction().execute(async (transaction) => {
        const latest = await transaction
          .updateTable("billing_customer")
          .set({ subscriptions_read_at: readAt })
          .where("customer_id", "=", customerId)
          .where((where) => where.or([where("subscriptions_read_at", "is", null), where("subscriptions_read_at", "<=", readAt)]))
          .returning("customer_id")
          .executeTakeFirst();
        if (latest === undefined) return false;
        await transaction.deleteFrom("billing_subscription").where("customer_id", "=", customerId).execute();
        if (rows.length > 0) {
          await transaction.insertInto("billing_subscription").values(rows).execute();
        }
        return true;
      });
    },
    async subscriptionsOfUser(userId: string): Promise<StoredSubscription[]> {
      return db.selectFrom("billing_subscription").selectAll().where("user_id", "=", userId).orderBy("current_period_end", "desc").orderBy("subscription_id").execute();
    },
    async recordDelivery(input: { id: string; eventId: string; eventType: string; customerId: string | null; receivedAt: Date }): Promise<void> {
      await db
        .insertInto("billing_webhook_delivery")
        .values({
          id: input.id,
          event_id: input.eventId,
          event_type: input.eventType,
          customer_id: input.customerId,
          received_at: input.receivedAt.toISOString(),
          outcome: "received",
          error: null,
        })
        .execute();
    },
    async finishDelivery(id: string, outcome: "synced" | "ignored" | "failed", error: string | null = null): Promise<void> {
      await db.updateTable("billing_webhook_delivery").set({ outcome, error }).where("id", "=", id).execute();
    },
  };
}

export type BillingStore = ReturnType<typeof createBillingStore>;
