import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createBillingStore, type BillingStore, type StoredSubscription } from "./billing-store.ts";

const customerId = "cus_read_order";

function subscriptionRead(status: string, syncedAt: string): StoredSubscription {
  return {
    subscription_id: "sub_read_order",
    customer_id: customerId,
    user_id: "user-read-order",
    status,
    price_id: "price_plus_month",
    plan_key: "plus",
    amount_in_cents: 900,
    current_period_end: 1_775_000_000,
    cancel_at_period_end: 0,
    synced_at: syncedAt,
  };
}

describe.each(testDatabaseEngines)("given a billing customer on %s", (engine) => {
  let testDatabase: TestDatabase;
  let store: BillingStore;

  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    store = createBillingStore(testDatabase.database);
    await store.saveCustomer({ userId: "user-read-order", provider: "dev", customerId, now: new Date("2026-03-02T09:00:00.000Z") });
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  async function storedStatuses(): Promise<string[]> {
    const rows = await testDatabase.database.selectFrom("billing_subscription").select("status").where("customer_id", "=", customerId).execute();
    return rows.map((row) => row.status);
  }

  it("should keep the list read later when a list read earlier arrives after it", async () => {
    expect(await store.replaceSubscriptions(customerId, [subscriptionRead("canceled", "2026-03-02T09:00:02.000Z")], new Date("2026-03-02T09:00:01.500Z"))).toBe(true);
    expect(await store.replaceSubscriptions(customerId, [subscriptionRead("active", "2026-03-02T09:00:02.100Z")], new Date("2026-03-02T09:00:01.000Z"))).toBe(false);

    expect(await storedStatuses()).toEqual(["canceled"]);
  });

  it("should store lists read at the same moment or later, each replacing the one before", async () => {
    const readAt = new Date("2026-03-02T09:00:01.000Z");
    expect(await store.replaceSubscriptions(customerId, [subscriptionRead("incomplete", "2026-03-02T09:00:01.000Z")], readAt)).toBe(true);
    expect(await store.replaceSubscriptions(customerId, [subscriptionRead("active", "2026-03-02T09:00:01.000Z")], readAt)).toBe(true);
    expect(await storedStatuses()).toEqual(["active"]);

    expect(await store.replaceSubscriptions(customerId, [], new Date("2026-03-02T09:00:03.000Z"))).toBe(true);
    expect(await storedStatuses()).toEqual([]);
  });

  it("should store one list of many replaced at once, without failing one", async () => {
    const reads = Array.from({ length: 8 }, (_, index) => store.replaceSubscriptions(customerId, [subscriptionRead(index % 2 === 0 ? "active" : "past_due", "2026-03-02T09:00:01.000Z")], new Date("2026-03-02T09:00:01.000Z")));

    expect(await Promise.all(reads)).toEqual(reads.map(() => true));
    expect(await storedStatuses()).toHaveLength(1);
  });

  it("should store nothing for a customer it does not know", async () => {
    expect(await store.replaceSubscriptions("cus_stranger", [{ ...subscriptionRead("active", "2026-03-02T09:00:01.000Z"), customer_id: "cus_stranger" }], new Date("2026-03-02T09:00:01.000Z"))).toBe(false);
    expect(await testDatabase.database.selectFrom("billing_subscription").select("subscription_id").execute()).toEqual([]);
  });
});
