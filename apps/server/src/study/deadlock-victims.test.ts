import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, testPostgresUrl, type TestDatabase } from "../database/test-databases.ts";
import { countStudyRows, createStudyTestApp } from "./testing/study-test-app.ts";
import { createStudyTestClient, type StudyTestClient } from "./testing/study-test-client.ts";

// PostgreSQL breaks a deadlock by failing one of its transactions: the one whose wait reaches `deadlock_timeout`
// (1 s) first. Each test below makes the server's transaction wait first on a row this connection holds, then makes
// this connection wait on what the server's holds; this connection waits 30 s before it looks, so the server's
// transaction is the victim, every time. It must run again and answer as if nothing had happened (decision 0081).

let testDatabase: TestDatabase;
let app: ReturnType<typeof createStudyTestApp>;
let other: pg.Client;
const now = new Date("2026-03-02T09:00:00.000Z");

async function signedIn(email: string): Promise<StudyTestClient> {
  const client = createStudyTestClient(app);
  await client.signUp(email);
  return client;
}

async function groupOfPairs(owner: StudyTestClient): Promise<{ groupId: string; pairIds: string[] }> {
  const uploaded = await owner.upload({ isPublic: "true" });
  expect(uploaded.status, uploaded.text).toBe(201);
  const groupId = uploaded.body.group.id as string;
  const stats = await owner.get(`/api/subtitle-groups/${groupId}/stats/?page_size=50`);
  return { groupId, pairIds: (stats.body.pairs as { id: string }[]).map((pair) => pair.id) };
}

async function rate(learner: StudyTestClient, pairId: string) {
  const answer = await learner.post(`/api/subtitle-pairs/${pairId}/rate/`, { is_correct: true });
  expect(answer.status, answer.text).toBe(200);
}

/** Waits until a transaction of the server waits for a lock, its statement starting with `statementStart`. */
async function untilServerWaitsIn(statementStart: string): Promise<void> {
  // Generous: on a busy machine the request may take seconds to reach its statement.
  for (const givingUpAt = Date.now() + 15_000; Date.now() < givingUpAt; ) {
    // Within a transaction, the activity read is a snapshot taken once: clear it to read it anew.
    await other.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await other.query(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND datname = current_database() AND query LIKE $1",
      [`%${statementStart}%`],
    );
    if ((rows[0] as { waiting: number }).waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`No statement "${statementStart}" of the server waited for a lock.`);
}

async function deadlocksSoFar(): Promise<number> {
  await other.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await other.query("SELECT deadlocks::int AS deadlocks FROM pg_stat_database WHERE datname = current_database()");
  return (rows[0] as { deadlocks: number }).deadlocks;
}

describe.each(testDatabaseEngines.filter((engine) => engine === "postgresql"))("given writes chosen as a deadlock's victim on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    app = createStudyTestApp(testDatabase, { clock: () => now });
    other = new pg.Client({ connectionString: testPostgresUrl, options: `-c search_path=${testDatabase.postgresSchema}` });
    await other.connect();
    await other.query("SET deadlock_timeout = '30s'");
  });
  afterEach(async () => {
    await other.end();
    await testDatabase.destroy();
  });

  it("should delete a film whose records it met in a deadlock, running its transaction again", async () => {
    const owner = await signedIn("owner@example.ch");
    const learner = await signedIn("ann@example.ch");
    const { groupId, pairIds } = await groupOfPairs(owner);
    const [first, second] = pairIds as [string, string];
    await rate(learner, first);
    await rate(learner, second);
    const deadlocksBefore = await deadlocksSoFar();

    await other.query("BEGIN");
    await other.query("SELECT 1 FROM study_progress WHERE pair_id = $1 FOR UPDATE", [second]);
    const deletion = owner.delete(`/api/subtitle-groups/${groupId}/`);
    // The deletion holds the first record and waits for the second; asking for the first closes the circle.
    await untilServerWaitsIn('delete from "study_progress"');
    await other.query("SELECT 1 FROM study_progress WHERE pair_id = $1 FOR UPDATE", [first]);
    await other.query("COMMIT");

    const answer = await deletion;
    expect(answer.status, answer.text).toBe(204);
    expect(await deadlocksSoFar()).toBeGreaterThan(deadlocksBefore);
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
    expect(await testDatabase.database.selectFrom("study_progress").select("pair_id").execute()).toEqual([]);
  });

  it("should count a rating whose batch met another transaction in a deadlock, running it again", async () => {
    const owner = await signedIn("owner@example.ch");
    const learner = await signedIn("ann@example.ch");
    const { pairIds } = await groupOfPairs(owner);
    const [first] = pairIds as [string];
    await rate(learner, first);
    const { learner_key: learnerKey } = await testDatabase.database.selectFrom("study_progress").select("learner_key").where("pair_id", "=", first).executeTakeFirstOrThrow();
    const deadlocksBefore = await deadlocksSoFar();

    await other.query("BEGIN");
    await other.query("SELECT 1 FROM study_progress WHERE pair_id = $1 FOR UPDATE", [first]);
    const rating = learner.post(`/api/subtitle-pairs/${first}/rate/`, { is_correct: true });
    // The rating holds its learner's lock and waits for the record; asking for the learner's lock closes the circle.
    await untilServerWaitsIn("EXECUTE atelier_rate_cards");
    await other.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`study-progress:${learnerKey}`]);
    await other.query("COMMIT");

    const answer = await rating;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ pair: { id: first, current_box: 3 } });
    expect(await deadlocksSoFar()).toBeGreaterThan(deadlocksBefore);
    const record = await testDatabase.database.selectFrom("study_progress").select(["box", "review_count"]).where("pair_id", "=", first).executeTakeFirstOrThrow();
    expect({ box: Number(record.box), reviews: Number(record.review_count) }).toEqual({ box: 3, reviews: 2 });
  });
});
