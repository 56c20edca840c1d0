import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBillingTestServer, subscribe, withoutRelayHeadersOnDevelopmentPages } from "../billing/testing/billing-test-helpers.ts";
import type { BillingProvider } from "../billing/billing-provider.ts";
import { developmentPriceId } from "../billing/plans.ts";
import type { DatabaseEngine } from "../database/open-database.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { testOrigin } from "../identity/testing/identity-test-client.ts";
import { createStudyTestClient, englishFixture, swedishFixture } from "../study/testing/study-test-client.ts";
import { signInToDeleteAccountMessage } from "./account-deletion.ts";

let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;
const password = "correct horse battery";

describe.each(testDatabaseEngines)("given a user who deletes their account, on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-02T09:00:00.000Z");
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  const usersWithEmail = async (email: string) =>
    testDatabase.database.selectFrom("identity_email_address").select("user_id").where("email", "=", email).execute();

  it("should ask a visitor to sign in, and a user whose sign-in is older than 5 minutes to reauthenticate, deleting nothing", async () => {
    const app = withoutRelayHeadersOnDevelopmentPages(createBillingTestServer(testDatabase, clock));
    const visitor = createStudyTestClient(app);
    await visitor.get("/api/subtitle-groups/");
    expect(await visitor.delete("/api/account/")).toMatchObject({ status: 401, body: { message: signInToDeleteAccountMessage } });

    const anna = createStudyTestClient(app);
    await anna.signUp("anna@example.ch");
    now = new Date(now.getTime() + 301_000);
    const refused = await anna.delete("/api/account/");
    expect(refused.status).toBe(401);
    expect(refused.body.data.flows).toEqual(expect.arrayContaining([expect.objectContaining({ id: "reauthenticate" })]));
    expect(await usersWithEmail("anna@example.ch")).toHaveLength(1);

    expect((await anna.post("/_allauth/browser/v1/auth/reauthenticate", { password })).status).toBe(200);
    expect((await anna.delete("/api/account/")).status).toBe(204);
    expect(await usersWithEmail("anna@example.ch")).toHaveLength(0);
  });

  it("should end the subscription at the provider, delete all that was the user's, keep everyone else's and the payment records, sign out every device, mail a last time, and let the address sign up again", async () => {
    const app = withoutRelayHeadersOnDevelopmentPages(createBillingTestServer(testDatabase, clock));
    const anna = createStudyTestClient(app);
    const annaId = await anna.signUp("anna@example.ch");
    const annasGroup = (await anna.upload({ isPublic: "true", name: "Morgontåget" })).body.group.id as string;
    const [annasPair] = (await anna.get(`/api/subtitle-groups/${annasGroup}/pairs/?mode=study&range=all&cardCount=5`)).body.pairs as { id: string }[];
    await anna.post(`/api/subtitle-pairs/${annasPair!.id}/rate/`, { is_correct: true });
    await subscribe(anna, developmentPriceId("plus", "month"));
    const annasLaptop = createStudyTestClient(app);
    await annasLaptop.signIn("anna@example.ch");

    // Ben studies Anna's public group and keeps a group of his own.
    const ben = createStudyTestClient(app);
    await ben.signUp("ben@example.ch");
    await ben.post(`/api/subtitle-pairs/${annasPair!.id}/rate/`, { is_correct: true });
    const bensGroup = (await ben.upload({ name: "Bens film" })).body.group.id as string;
    const [bensPair] = (await ben.get(`/api/subtitle-groups/${bensGroup}/pairs/?mode=study&range=all&cardCount=5`)).body.pairs as { id: string }[];
    await ben.post(`/api/subtitle-pairs/${bensPair!.id}/rate/`, { is_correct: false });

    // A signup records no authentication: deleting asks for the password first, as second factors do.
    expect((await anna.post("/_allauth/browser/v1/auth/reauthenticate", { password })).status).toBe(200);
    const deleted = await anna.delete("/api/account/");
    expect(deleted.status).toBe(204);
    expect(deleted.headers.getSetCookie().some((cookie) => cookie.startsWith("sessionid=;"))).toBe(true);

    const database = testDatabase.database;
    expect(await database.selectFrom("identity_user").select("id").where("id", "=", annaId).execute()).toEqual([]);
    expect(await database.selectFrom("identity_session").select("id").where("user_id", "=", annaId).execute()).toEqual([]);
    expect(await database.selectFrom("subtitle_group").select("id").where("owner_id", "=", annaId).execute()).toEqual([]);
    expect(await database.selectFrom("subtitle_pair").select("id").where("group_id", "=", annasGroup).execute()).toEqual([]);
    expect(await database.selectFrom("study_progress").select("pair_id").where("group_id", "=", annasGroup).execute()).toEqual([]);
    expect(await database.selectFrom("study_progress").select("pair_id").where("learner_key", "=", `user:${annaId}`).execute()).toEqual([]);
    expect((await database.selectFrom("study_progress").select("pair_id").where("group_id", "=", bensGroup).execute()).map((row) => row.pair_id)).toEqual([bensPair!.id]);
    expect((await annasLaptop.get("/_allauth/browser/v1/auth/session")).status).toBe(401);
    // The subscription ended at the provider; our record of the payment stays, as the privacy policy says.
    expect((await database.selectFrom("dev_billing_subscription").select("status").execute()).map((row) => row.status)).toEqual(["canceled"]);
    expect(await database.selectFrom("billing_subscription").select("user_id").where("user_id", "=", annaId).execute()).toHaveLength(1);
    const lastMail = await database.selectFrom("outbox_mail").select(["subject", "text_body"]).where("to_address", "=", "anna@example.ch").orderBy("created_at", "desc").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(lastMail.subject).toBe("Your Atelier account was deleted");

    const again = createStudyTestClient(app);
    expect(await again.signUp("anna@example.ch")).not.toBe(annaId);
  });

  it("should delete the account once and mail once when the deletion is sent several times at once", async () => {
    const app = withoutRelayHeadersOnDevelopmentPages(createBillingTestServer(testDatabase, clock));
    const anna = createStudyTestClient(app);
    const annaId = await anna.signUp("anna@example.ch");
    await anna.upload({ name: "Morgontåget" });
    expect((await anna.post("/_allauth/browser/v1/auth/reauthenticate", { password })).status).toBe(200);

    const answers = await Promise.all([1, 2, 3].map(() => anna.delete("/api/account/")));

    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204]);
    expect(await testDatabase.database.selectFrom("identity_user").select("id").where("id", "=", annaId).execute()).toEqual([]);
    const mails = await testDatabase.database.selectFrom("outbox_mail").select("subject").where("to_address", "=", "anna@example.ch").where("subject", "=", "Your Atelier account was deleted").execute();
    expect(mails).toHaveLength(1);
  });

  it("should refuse an upload whose account was deleted while its files were read, leaving no group behind", async () => {
    const app = withoutRelayHeadersOnDevelopmentPages(createBillingTestServer(testDatabase, clock));
    const anna = createStudyTestClient(app);
    const annaId = await anna.signUp("anna@example.ch");
    expect((await anna.post("/_allauth/browser/v1/auth/reauthenticate", { password })).status).toBe(200);
    const form = new FormData();
    form.append("english", new File([englishFixture], "Morgontåget.en.xml", { type: "text/xml" }));
    form.append("swedish", new File([swedishFixture], "Morgontåget.sv.xml", { type: "text/xml" }));
    form.append("is_public", "true");
    const formRequest = new Request(testOrigin, { method: "POST", body: form });
    const formBytes = new Uint8Array(await formRequest.arrayBuffer());
    // The body's first half when the server asks for it (it has checked the session then), a pause in which the
    // account is deleted, then the rest.
    let serverIsReading = () => {};
    const serverReads = new Promise<void>((resolve) => (serverIsReading = resolve));
    let sendTheRest = () => {};
    const restMaySend = new Promise<void>((resolve) => (sendTheRest = resolve));
    let halvesSent = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          halvesSent += 1;
          if (halvesSent === 1) {
            serverIsReading();
            controller.enqueue(formBytes.slice(0, formBytes.length / 2));
            return;
          }
          await restMaySend;
          controller.enqueue(formBytes.slice(formBytes.length / 2));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const cookieHeader = [...anna.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const uploading = app.request("/api/upload-subtitles/", {
      method: "POST",
      body,
      duplex: "half",
      headers: { Cookie: cookieHeader, Origin: testOrigin, "X-CSRFToken": anna.cookies.get("csrftoken") ?? "", "Content-Type": formRequest.headers.get("content-type") ?? "", "Content-Length": String(formBytes.length), "X-Forwarded-For": "198.51.100.77" },
    } as RequestInit);

    await serverReads;
    expect((await anna.delete("/api/account/")).status).toBe(204);
    sendTheRest();
    const upload = await uploading;

    expect(upload.status).toBe(401);
    expect(await upload.json()).toEqual({ error: "Please sign in to upload subtitles." });
    expect(await testDatabase.database.selectFrom("subtitle_group").select("id").where("owner_id", "=", annaId).execute()).toEqual([]);
    expect(await testDatabase.database.selectFrom("subtitle_pair").select("id").execute()).toEqual([]);
  });

  it("should delete nothing when the billing provider cannot be reached, and say so", async () => {
    const unreachable: BillingProvider = {
      name: "dev",
      createCustomer: async () => "cus_unreachable",
      createCheckoutSession: async () => ({ id: "cs_unused", url: "unused" }),
      expireOtherOpenCheckoutSessions: async () => undefined,
      createPortalSession: async () => ({ url: "unused" }),
      cancelSubscriptionNow: async () => undefined,
      listSubscriptions: async () => {
        throw new Error("connect ECONNREFUSED api.stripe.com");
      },
      verifyWebhook: () => {
        throw new Error("unused");
      },
    };
    const app = createBillingTestServer(testDatabase, clock, { billingProvider: unreachable });
    const anna = createStudyTestClient(app);
    const annaId = await anna.signUp("anna@example.ch");
    await testDatabase.database.insertInto("billing_customer").values({ user_id: annaId, provider: "dev", customer_id: "cus_unreachable", created_at: now.toISOString() }).execute();
    expect((await anna.post("/_allauth/browser/v1/auth/reauthenticate", { password })).status).toBe(200);
    const refused = await anna.delete("/api/account/");
    expect(refused.status).toBe(502);
    expect(refused.body.message).toMatch(/payment provider could not be reached/);
    expect(await usersWithEmail("anna@example.ch")).toHaveLength(1);
    expect((await anna.get("/_allauth/browser/v1/auth/session")).status).toBe(200);
  });

  /** A database that fails the deletion's last statement, once all the others have run in the same transaction. */
  async function makeDeletingUsersFail(engine: DatabaseEngine) {
    const database = testDatabase.database;
    if (engine === "sqlite") {
      await sql`create trigger fail_deleting_users before delete on identity_user begin select raise(abort, 'injected failure: the disk is full'); end`.execute(database);
      return;
    }
    await sql`create function fail_deleting_users() returns trigger language plpgsql as $$ begin raise exception 'injected failure: the disk is full'; end $$`.execute(database);
    await sql`create trigger fail_deleting_users before delete on identity_user for each row execute function fail_deleting_users()`.execute(database);
  }

  it("should delete nothing at all when the database fails midway through the deletion, and keep the user signed in", async () => {
    const app = createBillingTestServer(testDatabase, clock);
    const anna = createStudyTestClient(app);
    const annaId = await anna.signUp("anna@example.ch");
    const annasGroup = (await anna.upload({ isPublic: "true", name: "Morgontåget" })).body.group.id as string;
    const [annasPair] = (await anna.get(`/api/subtitle-groups/${annasGroup}/pairs/?mode=study&range=all&cardCount=5`)).body.pairs as { id: string }[];
    await anna.post(`/api/subtitle-pairs/${annasPair!.id}/rate/`, { is_correct: true });
    const ben = createStudyTestClient(app);
    await ben.signUp("ben@example.ch");
    await ben.post(`/api/subtitle-pairs/${annasPair!.id}/rate/`, { is_correct: false });
    expect((await anna.post("/_allauth/browser/v1/auth/reauthenticate", { password })).status).toBe(200);

    const database = testDatabase.database;
    const everythingOfAnna = async () => ({
      users: await database.selectFrom("identity_user").select("id").where("id", "=", annaId).execute(),
      addresses: await database.selectFrom("identity_email_address").select("email").where("user_id", "=", annaId).execute(),
      sessions: await database.selectFrom("identity_session").select("id").where("user_id", "=", annaId).orderBy("id").execute(),
      events: await database.selectFrom("account_security_event").select("id").where("user_id", "=", annaId).orderBy("id").execute(),
      groups: await database.selectFrom("subtitle_group").select("id").where("owner_id", "=", annaId).execute(),
      pairs: await database.selectFrom("subtitle_pair").select("id").where("group_id", "=", annasGroup).orderBy("id").execute(),
      progressOnHerGroup: await database.selectFrom("study_progress").select(["learner_key", "pair_id"]).where("group_id", "=", annasGroup).orderBy("learner_key").execute(),
    });
    const before = await everythingOfAnna();
    expect(before.users).toHaveLength(1);
    expect(before.sessions.length).toBeGreaterThan(0);
    expect(before.pairs.length).toBeGreaterThan(0);
    expect(before.progressOnHerGroup).toHaveLength(2);

    await makeDeletingUsersFail(engine);
    const failed = await anna.delete("/api/account/");
    expect(failed.status).toBe(500);
    expect(await everythingOfAnna()).toEqual(before);
    expect((await anna.get("/_allauth/browser/v1/auth/session")).status).toBe(200);
    const mails = await database.selectFrom("outbox_mail").select("subject").where("to_address", "=", "anna@example.ch").execute();
    expect(mails.map((mail) => mail.subject)).not.toContain("Your Atelier account was deleted");
  });
});
