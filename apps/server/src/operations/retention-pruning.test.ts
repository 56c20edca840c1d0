import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contactMessageRetentionDays } from "../contact/contact-retention.ts";
import { identityTimeouts } from "../identity/flows.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { anonymousProgressRetentionDays } from "../study/anonymous-retention.ts";
import { createStudyTestClient, type StudyTestClient } from "../study/testing/study-test-client.ts";
import { createStudyTestApp } from "../study/testing/study-test-app.ts";
import { startRetentionPruning, type RetentionRule } from "./retention-pruning.ts";

const dayMilliseconds = 86_400_000;
const startedAt = new Date("2026-03-02T09:00:00.000Z");
let testDatabase: TestDatabase;
let app: ReturnType<typeof createStudyTestApp>;
let now: Date;
const clock = () => now;

function daysAfterStart(days: number): Date {
  return new Date(startedAt.getTime() + days * dayMilliseconds);
}

async function pruneAt(moment: Date, rules?: readonly RetentionRule[]): Promise<void> {
  now = moment;
  const pruning = startRetentionPruning({ database: testDatabase.database, clock, ...(rules ? { rules } : {}) });
  await pruning.settled();
  await pruning.stop();
}

async function learnerKeysWithRecords(): Promise<string[]> {
  const progress = await testDatabase.database.selectFrom("study_progress").select("learner_key").distinct().execute();
  const hidden = await testDatabase.database.selectFrom("study_hidden_pair").select("learner_key").distinct().execute();
  return [...new Set([...progress, ...hidden].map((row) => row.learner_key))].sort();
}

async function ok(response: Promise<{ status: number; text: string }>): Promise<void> {
  const answer = await response;
  expect(answer.status, answer.text).toBe(200);
}

describe.each(testDatabaseEngines)("given data whose time in the privacy policy has passed, on %s", (engine) => {
  let owner: StudyTestClient;
  let groupId: string;
  let pairIds: string[];

  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = startedAt;
    app = createStudyTestApp(testDatabase, { clock });
    owner = createStudyTestClient(app);
    await owner.signUp("owner@example.ch");
    const upload = await owner.upload({ isPublic: "true" });
    expect(upload.status, upload.text).toBe(201);
    groupId = upload.body.group.id;
    pairIds = (await owner.get(`/api/subtitle-groups/${groupId}/pairs/`)).body.pairs.map((pair: { id: string }) => pair.id);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it(`should delete anonymous learners unseen for ${anonymousProgressRetentionDays} days, their hidden pairs and memorized count too, and no one else`, async () => {
    const onlyOnce = createStudyTestClient(app);
    for (let answer = 0; answer < 4; answer += 1) await ok(onlyOnce.post(`/api/subtitle-pairs/${pairIds[0]}/rate/`, { is_correct: true }));
    const returning = createStudyTestClient(app);
    await ok(returning.post(`/api/subtitle-pairs/${pairIds[0]}/rate/`, { is_correct: true }));
    const hidesLater = createStudyTestClient(app);
    await ok(hidesLater.post(`/api/subtitle-pairs/${pairIds[0]}/rate/`, { is_correct: true }));
    const hidesOnly = createStudyTestClient(app);
    await ok(hidesOnly.post(`/api/subtitle-pairs/${pairIds[1]}/hide/`));
    await ok(owner.post(`/api/subtitle-pairs/${pairIds[0]}/rate/`, { is_correct: true }));
    now = daysAfterStart(100);
    await ok(hidesLater.post(`/api/subtitle-pairs/${pairIds[1]}/hide/`));
    now = daysAfterStart(200);
    await ok(returning.post(`/api/subtitle-pairs/${pairIds[2]}/rate/`, { is_correct: false }));
    const keyOf = (client: StudyTestClient) => `anonymous:${client.cookies.get("learner_id")?.split(".")[0]}`;
    const ownerKey = (await testDatabase.database.selectFrom("study_progress").select("learner_key").where("learner_key", "like", "user:%").executeTakeFirstOrThrow()).learner_key;
    expect(await learnerKeysWithRecords()).toEqual([keyOf(onlyOnce), keyOf(returning), keyOf(hidesLater), keyOf(hidesOnly), ownerKey].sort());
    expect(await testDatabase.database.selectFrom("study_learner_memorized").select("learner_key").execute()).toEqual([{ learner_key: keyOf(onlyOnce) }]);

    await pruneAt(new Date(daysAfterStart(anonymousProgressRetentionDays).getTime() - 60_000));
    expect(await learnerKeysWithRecords()).toHaveLength(5);

    await pruneAt(new Date(daysAfterStart(anonymousProgressRetentionDays).getTime() + 60_000));
    expect(await learnerKeysWithRecords()).toEqual([keyOf(returning), keyOf(hidesLater), ownerKey].sort());
    expect(await testDatabase.database.selectFrom("study_learner_memorized").select("learner_key").execute()).toEqual([]);

    await pruneAt(daysAfterStart(100 + anonymousProgressRetentionDays + 1));
    expect(await learnerKeysWithRecords()).toEqual([keyOf(returning), ownerKey].sort());
    await pruneAt(daysAfterStart(200 + anonymousProgressRetentionDays + 1));
    expect(await learnerKeysWithRecords()).toEqual([ownerKey]);
    await pruneAt(daysAfterStart(5_000));
    expect(await learnerKeysWithRecords()).toEqual([ownerKey]);
  });

  it("should walk every anonymous learner, past the hundred a step reads", async () => {
    const rows = Array.from({ length: 250 }, (_, index) => ({
      learner_key: `anonymous:${String(index).padStart(32, "x")}`,
      pair_id: pairIds[index % pairIds.length] ?? "",
      group_id: groupId,
      box: 2,
      review_count: 1,
      correct_count: 1,
      studied_at: startedAt.toISOString(),
      last_reviewed_at: startedAt.toISOString(),
      due_at: startedAt.toISOString(),
      // Every third learner came back after a year: the steps must keep them while deleting their neighbours.
      updated_at: (index % 3 === 0 ? daysAfterStart(365) : startedAt).toISOString(),
    }));
    await testDatabase.database.insertInto("study_progress").values(rows).execute();
    await pruneAt(daysAfterStart(anonymousProgressRetentionDays + 1));
    expect(await learnerKeysWithRecords()).toEqual(rows.filter((_, index) => index % 3 === 0).map((row) => row.learner_key).sort());
  });

  it(`should delete contact messages older than ${contactMessageRetentionDays} days`, async () => {
    const message = (id: string, receivedAt: Date) => ({ id, name: "Anna", email: "anna@example.ch", message: "Is the blue one still for sale?", ip_address: "198.51.100.1", created_at: receivedAt.toISOString(), delivery_status: "sent" as const, delivery_error: null });
    await testDatabase.database.insertInto("contact_message").values([message("first", startedAt), message("second", daysAfterStart(400))]).execute();
    const kept = async () => (await testDatabase.database.selectFrom("contact_message").select("id").orderBy("id").execute()).map((row) => row.id);

    await pruneAt(new Date(daysAfterStart(contactMessageRetentionDays).getTime() - 60_000));
    expect(await kept()).toEqual(["first", "second"]);
    await pruneAt(new Date(daysAfterStart(contactMessageRetentionDays).getTime() + 60_000));
    expect(await kept()).toEqual(["second"]);
  });

  it("should delete sessions and e-mailed codes once they have expired, and only those", async () => {
    const stranger = createStudyTestClient(app);
    const requested = await stranger.post("/_allauth/browser/v1/auth/code/request", { email: "owner@example.ch" });
    expect(requested.status, requested.text).toBe(401);
    const count = async () => ({
      sessions: Number((await testDatabase.database.selectFrom("identity_session").select((expression) => expression.fn.countAll().as("count")).executeTakeFirstOrThrow()).count),
      codes: Number((await testDatabase.database.selectFrom("identity_code").select((expression) => expression.fn.countAll().as("count")).executeTakeFirstOrThrow()).count),
    });
    expect(await count()).toEqual({ sessions: 2, codes: 1 });

    await pruneAt(new Date(startedAt.getTime() + (identityTimeouts.loginByCodeTimeoutSeconds - 1) * 1_000));
    expect(await count()).toEqual({ sessions: 2, codes: 1 });
    await pruneAt(new Date(startedAt.getTime() + (identityTimeouts.loginByCodeTimeoutSeconds + 1) * 1_000));
    expect(await count()).toEqual({ sessions: 2, codes: 0 });
    await pruneAt(new Date(startedAt.getTime() + (identityTimeouts.anonymousSessionSeconds + 1) * 1_000));
    expect(await count()).toEqual({ sessions: 1, codes: 0 });
    expect((await owner.get("/_allauth/browser/v1/auth/session")).status).toBe(200);
    await pruneAt(new Date(startedAt.getTime() + (identityTimeouts.browserSessionSeconds + 1) * 1_000));
    expect(await count()).toEqual({ sessions: 0, codes: 0 });
  });

  it("should run every rule when one fails, and try the failed one again at the next prune", async () => {
    let failures = 1;
    const pruned: string[] = [];
    const rules: RetentionRule[] = [
      {
        what: "things that fail once",
        prune: async () => {
          if (failures-- > 0) throw new Error("The database is unavailable.");
          pruned.push("failing");
          return 1;
        },
      },
      { what: "other things", prune: async () => (pruned.push("other"), 0) },
    ];
    await pruneAt(startedAt, rules);
    expect(pruned).toEqual(["other"]);
    await pruneAt(startedAt, rules);
    expect(pruned).toEqual(["other", "failing", "other"]);
  });
});
