import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { developmentPriceId } from "../billing/plans.ts";
import { createBillingTestServer, subscribe, withoutRelayHeadersOnDevelopmentPages } from "../billing/testing/billing-test-helpers.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { privateDeckLimitMessage, sharedDeckExportMessage, signInToExportMessage } from "./deck-entitlements.ts";
import { countStudyRows } from "./testing/study-test-app.ts";
import { createStudyTestClient, type StudyTestClient } from "./testing/study-test-client.ts";

let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;
let app: ReturnType<typeof createBillingTestServer>;

async function signedIn(email: string): Promise<StudyTestClient> {
  const client = createStudyTestClient(withoutRelayHeadersOnDevelopmentPages(app));
  await client.signUp(email);
  return client;
}

async function uploadGroup(client: StudyTestClient, isPublic: "true" | "false"): Promise<string> {
  const response = await client.upload({ isPublic });
  expect(response.status, response.text).toBe(201);
  return response.body.group.id as string;
}

describe.each(testDatabaseEngines)("given plans and the study API on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-02T09:00:00.000Z");
    app = createBillingTestServer(testDatabase, clock);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should let a user without a plan keep 1 private deck, refuse a second before reading its files, and keep public uploads open", async () => {
    const learner = await signedIn("free@example.ch");
    expect((await learner.get("/api/subtitle-groups/")).body.allowance).toEqual({
      plan: null,
      private_decks: 0,
      private_deck_limit: 1,
      may_add_private_deck: true,
      may_export_shared_decks: false,
    });
    await uploadGroup(learner, "false");
    const refused = await learner.upload({ isPublic: "false" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: privateDeckLimitMessage({ planName: null, privateDecks: 1, sharedDeckExports: false }, 1) });
    expect(refused.body.error).toBe(
      "Without a plan you can keep 1 private deck, and you have 1. Make this deck public, make one of your private decks public, or choose a larger plan on the pricing page.",
    );
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 1, pairs: 14 });
    // Files that cannot be parsed get the limit's answer, not the parser's: the limit is checked first.
    const unreadable = await learner.upload({ isPublic: "false", english: { name: "a.xml", bytes: "not xml" }, swedish: { name: "b.xml", bytes: "not xml" } });
    expect(unreadable.status).toBe(403);
    await uploadGroup(learner, "true");
    expect((await learner.get("/api/subtitle-groups/")).body.allowance).toMatchObject({ private_decks: 1, may_add_private_deck: false });
  });

  it("should refuse to make a public deck private over the limit, and allow it again once a private deck is public", async () => {
    const learner = await signedIn("free@example.ch");
    const privateGroup = await uploadGroup(learner, "false");
    const publicGroup = await uploadGroup(learner, "true");
    const refused = await learner.post(`/api/subtitle-groups/${publicGroup}/toggle-public/`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/^Without a plan you can keep 1 private deck, and you have 1\./);
    expect((await learner.get(`/api/subtitle-groups/${publicGroup}/stats/`)).body.is_public).toBe(true);
    expect((await learner.post(`/api/subtitle-groups/${privateGroup}/toggle-public/`)).body.group.is_public).toBe(true);
    expect((await learner.post(`/api/subtitle-groups/${publicGroup}/toggle-public/`)).body.group.is_public).toBe(false);
  });

  it("should give the last private place to one of two private uploads sent at once", async () => {
    const learner = await signedIn("free@example.ch");
    const answers = await Promise.all([learner.upload({ isPublic: "false" }), learner.upload({ isPublic: "false" })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 403]);
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 1, pairs: 14 });
  });

  it("should let a Basic subscriber keep 5 private decks, naming the plan when refusing the sixth", async () => {
    const learner = await signedIn("basic@example.ch");
    await subscribe(learner, developmentPriceId("basic", "month"));
    for (let deck = 0; deck < 5; deck += 1) await uploadGroup(learner, "false");
    const refused = await learner.upload({ isPublic: "false" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/^Your Basic plan keeps up to 5 private decks, and you have 5\./);
    expect((await learner.get("/api/subtitle-groups/")).body.allowance).toMatchObject({ plan: "Basic", private_decks: 5, private_deck_limit: 5, may_export_shared_decks: false });
  });

  it("should export one's own deck on any plan, and a shared deck only with Plus or Studio", async () => {
    const owner = await signedIn("owner@example.ch");
    const sharedGroup = await uploadGroup(owner, "true");
    expect((await owner.get(`/api/subtitle-groups/${sharedGroup}/export.csv`)).status).toBe(200);
    expect((await owner.get(`/api/subtitle-groups/${sharedGroup}/stats/`)).body.can_export).toBe(true);

    const visitor = createStudyTestClient(app);
    expect(await visitor.get(`/api/subtitle-groups/${sharedGroup}/export.csv`)).toMatchObject({ status: 401, body: { error: signInToExportMessage } });
    expect((await visitor.get(`/api/subtitle-groups/${sharedGroup}/stats/`)).body.can_export).toBe(false);

    const learner = await signedIn("learner@example.ch");
    expect(await learner.get(`/api/subtitle-groups/${sharedGroup}/export.tsv`)).toMatchObject({ status: 403, body: { error: sharedDeckExportMessage } });
    expect((await learner.get(`/api/subtitle-groups/${sharedGroup}/stats/`)).body.can_export).toBe(false);
    await subscribe(learner, developmentPriceId("basic", "month"));
    expect((await learner.get(`/api/subtitle-groups/${sharedGroup}/export.tsv`)).status).toBe(403);

    const plusLearner = await signedIn("plus@example.ch");
    await subscribe(plusLearner, developmentPriceId("plus", "year"));
    expect((await plusLearner.get(`/api/subtitle-groups/${sharedGroup}/stats/`)).body.can_export).toBe(true);
    const exported = await plusLearner.get(`/api/subtitle-groups/${sharedGroup}/export.tsv`);
    expect(exported.status).toBe(200);
    expect(exported.text).toContain("God morgon, Anna.");
  });
});
