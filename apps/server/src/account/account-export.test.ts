import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createStudyTestApp } from "../study/testing/study-test-app.ts";
import { createStudyTestClient } from "../study/testing/study-test-client.ts";
import { signInToExportDataMessage, type AccountExport } from "./account-export.ts";

let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;

describe.each(testDatabaseEngines)("given a learner who asks for their data, on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-02T09:00:00.000Z");
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should answer a JSON attachment with the account, sessions, factors, groups with their pairs and progress, and no secret", async () => {
    const app = createStudyTestApp(testDatabase, { clock });
    const learner = createStudyTestClient(app);
    const userId = await learner.signUp("anna@example.ch");
    const upload = await learner.upload({ isPublic: "false", name: "Morgontåget" });
    const pairId = (await learner.get(`/api/subtitle-groups/${upload.body.group.id}/pairs/?mode=study&range=all&cardCount=5`)).body.pairs[0].id as string;
    await learner.post(`/api/subtitle-pairs/${pairId}/rate/`, { is_correct: true });
    await testDatabase.database
      .insertInto("identity_authenticator")
      .values({ id: "totp-1", number: 1, user_id: userId, type: "totp", name: null, credential_id: null, data_json: JSON.stringify({ secret: "JBSWY3DPEHPK3PXP-SECRET" }), created_at: now.toISOString(), last_used_at: null })
      .execute();
    // Someone else's data never comes along.
    const other = createStudyTestClient(app);
    await other.signUp("ben@example.ch");
    await other.upload({ name: "Bens film" });

    const response = await learner.get("/api/account/export/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="atelier-2026-03-02.json"');
    expect(response.headers.get("cache-control")).toBe("no-store");
    const data = JSON.parse(response.text) as AccountExport;
    expect(data).toMatchObject({
      exported_at: "2026-03-02T09:00:00.000Z",
      account: { id: userId, has_password: true, email_addresses: [{ email: "anna@example.ch", primary: true }] },
      second_factors: [{ type: "totp", name: null, created_at: "2026-03-02T09:00:00.000Z", last_used_at: null }],
      third_party_accounts: [],
      subscriptions: [],
      subtitle_groups: [{ name: "Morgontåget", is_public: false }],
      study_progress: [{ pair_id: pairId, box: 2, review_count: 1 }],
    });
    expect(data.sessions).toHaveLength(1);
    expect(data.security_events.map((event) => event.type)).toContain("signed_in");
    expect(data.subtitle_groups[0]?.pairs).toHaveLength(14);
    expect(data.subtitle_groups[0]?.pairs[0]).toEqual({ english: "Good morning, Anna.", swedish: "God morgon, Anna.", confidence: expect.any(Number) });
    for (const secret of ["SECRET", "argon2", "token_hash", "password_hash", "data_json", "ben@example.ch", "Bens film"]) {
      expect(response.text).not.toContain(secret);
    }
  });

  it("should ask a visitor to sign in", async () => {
    const visitor = createStudyTestClient(createStudyTestApp(testDatabase, { clock }));
    expect(await visitor.get("/api/account/export/")).toMatchObject({ status: 401, body: { error: signInToExportDataMessage } });
  });
});
