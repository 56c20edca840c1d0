import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, testPostgresUrl, type TestDatabase } from "../database/test-databases.ts";
import { countStudyRows, createStudyTestApp } from "./testing/study-test-app.ts";
import { createStudyTestClient, type StudyTestClient } from "./testing/study-test-client.ts";

// PostgreSQL breaks a deadlock by failing one of its transactions: a waiting transaction looks for a circle once,
// `deadlock_timeout` (1 s) after its wait began. Each test below makes the server's transaction wait on a row this
// connection holds, then makes this connection wait on what the server's holds, at once; this connection looks only
// after 5 s, so the server's transaction is the victim. It must run again and answer as if nothing had happened
// (decision 0081). Should this connection close the circle after the server's look (a machine stalled for a second),
// it is the victim itself after 5 s, and the test sets the scene again.

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

/** Waits until a transaction of the server waits for a lock this connection holds, in a statement with `statementStart`. */
async function untilServerWaitsIn(statementStart: string): Promise<void> {
  // Generous: on a busy machine the request may take seconds to reach its statement.
  for (const givingUpAt = Date.now() + 15_000; Date.now() < givingUpAt; ) {
    // Within a transaction, the activity read is a snapshot taken once: clear it to read it anew.
    await other.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await other.query(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid)) AND query LIKE $1",
      [`%${statementStart}%`],
    );
    if ((rows[0] as { waiting: number }).waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`No statement "${statementStart}" of the server waited for a lock.`);
}

/**
 * Sets the scene with `prepare` (this connection's transaction holds a row the server's will wait for), sends the
 * server's request, and once it waits, `closeCircle` asks for what it holds. Answers the server's answer; sets the
 * scene again (on new rows) when this connection lost instead.
 */
async function whenTheServerLosesADeadlock<Answer>(scene: () => Promise<{ prepare: () => Promise<void>; send: () => Promise<Answer>; waitsIn: string; closeCircle: () => Promise<void> }>): Promise<Answer> {
  for (let attempt = 1; ; attempt += 1) {
    const { prepare, send, waitsIn, closeCircle } = await scene();
    await other.query("BEGIN");
    await prepare();
    const answer = send();
    try {
      await untilServerWaitsIn(waitsIn);
      await closeCircle();
      await other.query("COMMIT");
      return await answer;
    } catch (error) {
      await other.query("ROLLBACK");
      await answer;
      if (attempt === 3 || (error as { code?: unknown }).code !== "40P01") throw error;
    }
  }
}

describe.each(testDatabaseEngines.filter((engine) => engine === "postgresql"))("given writes chosen as a deadlock's victim on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    app = createStudyTestApp(testDatabase, { clock: () => now });
    other = new pg.Client({ connectionString: testPostgresUrl, options: `-c search_path=${testDatabase.postgresSchema}` });
    await other.connect();
    await other.query("SET deadlock_timeout = '5s'");
  });
  afterEach(async () => {
    await other.end();
    await testDatabase.destroy();
  });

  it("should delete a film whose records it met in a deadlock, running its transaction again", { timeout: 60_000 }, async () => {
    const owner = await signedIn("owner@example.ch");
    const learner = await signedIn("ann@example.ch");
    const answer = await whenTheServerLosesADeadlock(async () => {
      const { groupId, pairIds } = await groupOfPairs(owner);
      const [first, second] = pairIds as [string, string];
      await rate(learner, first);
      await rate(learner, second);
      return {
        prepare: async () => void (await other.query("SELECT 1 FROM study_progress WHERE pair_id = $1 FOR UPDATE", [second])),
        send: () => owner.delete(`/api/subtitle-groups/${groupId}/`),
        // The deletion holds the first record and waits for the second; asking for the first closes the circle.
        waitsIn: 'delete from "study_progress"',
        closeCircle: async () => void (await other.query("SELECT 1 FROM study_progress WHERE pair_id = $1 FOR UPDATE", [first])),
      };
    });

    expect(answer.status, answer.text).toBe(204);
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
    expect(await testDatabase.database.selectFrom("study_progress").select("pair_id").execute()).toEqual([]);
  });

  it("should count a rating whose batch met another transaction in a deadlock, running it again", { timeout: 60_000 }, async () => {
    const owner = await signedIn("owner@example.ch");
    const learner = await signedIn("ann@example.ch");
    let rated = "";
    const answer = await whenTheServerLosesADeadlock(async () => {
      const { pairIds } = await groupOfPairs(owner);
      rated = pairIds[0] as string;
      await rate(learner, rated);
      const { learner_key: learnerKey } = await testDatabase.database.selectFrom("study_progress").select("learner_key").where("pair_id", "=", rated).executeTakeFirstOrThrow();
      return {
        prepare: async () => void (await other.query("SELECT 1 FROM study_progress WHERE pair_id = $1 FOR UPDATE", [rated])),
        send: () => learner.post(`/api/subtitle-pairs/${rated}/rate/`, { is_correct: true }),
        // The rating holds its learner's lock and waits for the record; asking for the learner's lock closes the circle.
        waitsIn: "EXECUTE atelier_rate_cards",
        closeCircle: async () => void (await other.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`study-progress:${learnerKey}`])),
      };
    });

    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ pair: { id: rated, current_box: 3 } });
    const record = await testDatabase.database.selectFrom("study_progress").select(["box", "review_count"]).where("pair_id", "=", rated).executeTakeFirstOrThrow();
    expect({ box: Number(record.box), reviews: Number(record.review_count) }).toEqual({ box: 3, reviews: 2 });
  });
});
