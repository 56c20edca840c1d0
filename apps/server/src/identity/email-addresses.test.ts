import { afterEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createAccountStore, EmailAddressTakenError } from "./email-addresses.ts";

const now = new Date("2026-03-10T10:00:00.000Z");

describe.each(testDatabaseEngines)("given accounts created at once with one address on %s", (engine) => {
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  it("should create one account and refuse the others with EmailAddressTakenError, writing nothing for them", async () => {
    testDatabase = await openTestDatabase(engine);
    const accounts = createAccountStore({ database: testDatabase.database });
    const spellings = ["anna@example.ch", "Anna@Example.ch", " anna@example.ch ", "ANNA@EXAMPLE.CH", "anna@example.ch", "anna@example.ch"];
    const outcomes = await Promise.allSettled(spellings.map((email) => accounts.createUser({ email, passwordHash: null, now })));

    const created = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(spellings.length - 1);
    for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(EmailAddressTakenError);
    const addresses = await testDatabase.database.selectFrom("identity_email_address").select(["user_id", "email"]).execute();
    const users = await testDatabase.database.selectFrom("identity_user").select("id").execute();
    expect(addresses).toEqual([{ user_id: created[0]?.value.id, email: "anna@example.ch" }]);
    expect(users).toEqual([{ id: created[0]?.value.id }]);
  });

  it("should refuse an address that another account holds unverified, and create one for a new address", async () => {
    testDatabase = await openTestDatabase(engine);
    const accounts = createAccountStore({ database: testDatabase.database });
    const anna = await accounts.createUser({ email: "anna@example.ch", passwordHash: null, now });
    await accounts.addEmailAddress(anna.id, "second@example.ch", now);

    await expect(accounts.createUser({ email: "second@example.ch", passwordHash: null, now })).rejects.toBeInstanceOf(EmailAddressTakenError);
    const bruno = await accounts.createUser({ email: "bruno@example.ch", passwordHash: "hash", now, emailVerified: true });
    expect(bruno.emailAddresses).toEqual([{ email: "bruno@example.ch", verified: true, primary: true }]);
    expect(await accounts.findByEmail("second@example.ch")).toMatchObject({ id: anna.id });
  });
});
