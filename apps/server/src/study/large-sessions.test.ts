import { describeSessionSelection } from "@atelier/leitner";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIdentityTestApp } from "../identity/testing/test-app.ts";
import { sqliteConnectionOf } from "../database/prepared-query.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { closeLargeSessionWorker } from "./large-session-reads.ts";
import { userLearnerKey } from "./learner.ts";
import { selectSessionCardsInDatabase } from "./session-cards-store.ts";
import { largeSessionCardCount, tooManyLargeSessionsMessage } from "./study-routes.ts";
import { insertGroupWithPairs } from "./study-store.ts";
import { createStudyTestClient, type StudyTestClient } from "./testing/study-test-client.ts";

let testDatabase: TestDatabase;
let app: ReturnType<typeof createIdentityTestApp>;
let now: Date;
const largeSessionLimit = { maximumRequests: 3, windowMilliseconds: 60_000 };

async function insertGroup(ownerId: string, pairCount: number): Promise<string> {
  const groupId = crypto.randomUUID();
  await insertGroupWithPairs(
    testDatabase.database,
    { id: groupId, ownerId, name: `Film of ${pairCount}`, isPublic: true, report: {} as never, createdAt: now.toISOString() },
    Array.from({ length: pairCount }, (_, index) => ({ english: `Line ${index}.`, swedish: `Rad ${index}.`, confidence: 1 })),
  );
  return groupId;
}

async function sessionOf(client: StudyTestClient, groupId: string, query: string) {
  return client.get(`/api/subtitle-groups/${groupId}/pairs/${query}`);
}

/** The SQL that this thread's drivers run during `work`: a worker thread's connections, with drivers of their own, run unseen. */
async function statementsOfThisThread<Result>(work: () => Promise<Result>): Promise<{ result: Result; statements: string[] }> {
  const statements: string[] = [];
  const connection = sqliteConnectionOf(testDatabase.database);
  type Runner = (this: { source: string }, ...values: unknown[]) => unknown;
  const statementPrototype = connection === undefined ? undefined : (Object.getPrototypeOf(connection.prepare("select 1")) as Record<"all" | "get" | "run" | "iterate", Runner>);
  const originals = statementPrototype === undefined ? [] : (["all", "get", "run", "iterate"] as const).map((name) => [name, statementPrototype[name]] as const);
  for (const [name, original] of originals) {
    if (statementPrototype !== undefined) {
      statementPrototype[name] = function (this: { source: string }, ...values: unknown[]) {
        statements.push(this.source);
        return original.apply(this, values);
      };
    }
  }
  const clientPrototype = pg.Client.prototype as unknown as { query: (...values: unknown[]) => unknown };
  const originalQuery = clientPrototype.query;
  clientPrototype.query = function (this: unknown, ...values: unknown[]) {
    const [text] = values;
    statements.push(typeof text === "string" ? text : String((text as { text?: unknown } | null)?.text));
    return originalQuery.apply(this, values);
  };
  try {
    return { result: await work(), statements };
  } finally {
    clientPrototype.query = originalQuery;
    for (const [name, original] of originals) if (statementPrototype !== undefined) statementPrototype[name] = original;
  }
}

describe.each(testDatabaseEngines)("given a film of more than 1,000 pairs and a limit of 3 large sessions a minute, on %s", (engine) => {
  let groupId: string;
  let smallGroupId: string;

  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-02T09:00:00.000Z");
    app = createIdentityTestApp(testDatabase, { environment: { ACCOUNT_EMAIL_VERIFICATION: "none", STUDY_LARGE_SESSION_RATE_LIMIT: "3/1m" }, clock: () => now });
    const owner = createStudyTestClient(app);
    const ownerId = await owner.signUp("owner@example.ch");
    groupId = await insertGroup(ownerId, largeSessionCardCount + 200);
    smallGroupId = await insertGroup(ownerId, 30);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should answer three sessions of every card from one address, then 429 with Retry-After and what to do, until the minute has passed", async () => {
    const learner = createStudyTestClient(app);
    // Sessions of every card of a small film, and of 1,000 cards of the large one, are not counted.
    for (let session = 0; session < 4; session += 1) {
      const wholeSmallFilm = await sessionOf(learner, smallGroupId, "");
      expect(wholeSmallFilm.status, wholeSmallFilm.text).toBe(200);
      expect(wholeSmallFilm.body.pairs).toHaveLength(30);
      const regular = await sessionOf(learner, groupId, `?cardCount=${largeSessionCardCount}`);
      expect(regular.status, regular.text).toBe(200);
      expect(regular.body.pairs).toHaveLength(largeSessionCardCount);
    }
    for (let session = 0; session < 3; session += 1) {
      const answer = await sessionOf(learner, groupId, "");
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.pairs).toHaveLength(largeSessionCardCount + 200);
    }
    const refused = await sessionOf(learner, groupId, `?mode=test&cardCount=${largeSessionCardCount + 1}`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: tooManyLargeSessionsMessage(largeSessionLimit, 60) });
    expect(refused.body.error).toBe("At most 3 sessions of more than 1,000 cards can start in a minute. Please wait 60 seconds, or choose fewer cards.");
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect(tooManyLargeSessionsMessage({ maximumRequests: 1, windowMilliseconds: 60_000 }, 1)).toBe("At most 1 session of more than 1,000 cards can start in a minute. Please wait a second, or choose fewer cards.");
    // Over the limit, a session of 1,000 cards is still answered.
    const regular = await sessionOf(learner, groupId, `?cardCount=${largeSessionCardCount}`);
    expect(regular.status, regular.text).toBe(200);

    now = new Date(now.getTime() + 60_001);
    const afterTheMinute = await sessionOf(learner, groupId, "?range=all");
    expect(afterTheMinute.status, afterTheMinute.text).toBe(200);
  });

  // Decision 0077: a large session's read and its JSON take hundreds of milliseconds on a 20,000-pair film; the server's
  // thread, which answers every other request, must not be the one that spends them.
  it("should read a session of more than 1,000 cards off the server's thread, the same cards as a read on it", async () => {
    const learner = createStudyTestClient(app);
    const learnerKey = userLearnerKey(await learner.signUp("learner@example.ch"));
    const firstCards = (await sessionOf(learner, groupId, "?cardCount=6")).body.pairs as { id: string }[];
    for (const [index, card] of firstCards.entries()) {
      expect((await learner.post(`/api/subtitle-pairs/${card.id}/rate/`, { is_correct: index % 3 !== 0 })).status).toBe(200);
    }
    expect((await learner.post(`/api/subtitle-pairs/${firstCards[5]?.id ?? ""}/hide/`)).status).toBe(200);

    const small = await statementsOfThisThread(() => sessionOf(learner, groupId, "?mode=test&cardCount=20"));
    expect(small.result.status, small.result.text).toBe(200);
    expect(small.statements.filter((statement) => statement.includes("subtitle_pair")).length).toBeGreaterThan(0);

    for (const query of ["?mode=test", "?mode=study&range=all", `?mode=test&range=all&startIndex=3&cardCount=${largeSessionCardCount + 10}`]) {
      const large = await statementsOfThisThread(() => sessionOf(learner, groupId, query));
      expect(large.result.status, large.result.text).toBe(200);
      expect(large.result.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(large.statements.filter((statement) => statement.includes("subtitle_pair"))).toEqual([]);
      const config = Object.fromEntries(new URLSearchParams(query));
      const selection = describeSessionSelection(
        { mode: config.mode as "test" | "study", range: (config.range ?? "all") as "all", ...(config.startIndex && { startIndex: Number(config.startIndex) }), ...(config.cardCount && { cardCount: Number(config.cardCount) }) },
        now,
      );
      expect(large.result.body).toEqual({ pairs: await selectSessionCardsInDatabase(testDatabase.database, learnerKey, groupId, selection) });
      expect((large.result.body.pairs as unknown[]).length).toBeGreaterThan(largeSessionCardCount);
    }
  });

  it("should start the large-session worker again when it has stopped", async () => {
    const learner = createStudyTestClient(app);
    expect((await sessionOf(learner, groupId, "")).status).toBe(200);
    await closeLargeSessionWorker();
    const again = await sessionOf(learner, groupId, "");
    expect(again.status, again.text).toBe(200);
    expect(again.body.pairs).toHaveLength(largeSessionCardCount + 200);
  });

  it("should count by address: a learner who drops its cookie is the same client, another address is not", async () => {
    const learner = createStudyTestClient(app);
    for (let session = 0; session < 3; session += 1) {
      expect((await sessionOf(learner, groupId, "")).status).toBe(200);
      learner.cookies.clear();
    }
    expect((await sessionOf(learner, groupId, "")).status).toBe(429);
    const neighbour = createStudyTestClient(app);
    expect((await sessionOf(neighbour, groupId, "")).status).toBe(200);
  });

  it("should count a large session asked for at once as many times as it was asked: no more than the limit are answered", async () => {
    const learner = createStudyTestClient(app);
    const answers = await Promise.all(Array.from({ length: 6 }, () => sessionOf(learner, groupId, `?cardCount=${largeSessionCardCount + 50}`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it("should not count a session of a group the learner may not see: 404, as before", async () => {
    const learner = createStudyTestClient(app);
    for (let session = 0; session < 4; session += 1) {
      const answer = await sessionOf(learner, crypto.randomUUID(), "");
      expect(answer.status).toBe(404);
    }
    expect((await sessionOf(learner, groupId, "")).status).toBe(200);
  });

  it("should mark 1,200 cards studied at once (ids looked up in several statements), and refuse the lot when one of them, late in the list, is another film's", async () => {
    const learner = createStudyTestClient(app);
    const everyCard = (await sessionOf(learner, groupId, `?cardCount=${largeSessionCardCount}`)).body.pairs as { id: string }[];
    const rest = (await sessionOf(learner, groupId, `?startIndex=${largeSessionCardCount + 1}&cardCount=200`)).body.pairs as { id: string }[];
    const ids = [...everyCard, ...rest].map((pair) => pair.id);
    expect(new Set(ids).size).toBe(largeSessionCardCount + 200);
    const smallFilmCard = ((await sessionOf(learner, smallGroupId, "?cardCount=1")).body.pairs as { id: string }[])[0]?.id ?? "";

    const refused = await learner.post(`/api/subtitle-groups/${groupId}/mark-studied/`, { pairIds: [...ids.slice(0, 1_100), smallFilmCard, ...ids.slice(1_100)] });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: "Some of these cards are not in this group." });
    expect(await testDatabase.database.selectFrom("study_progress").select("pair_id").execute()).toEqual([]);

    const marked = await learner.post(`/api/subtitle-groups/${groupId}/mark-studied/`, { pairIds: [...ids, ids[0]] });
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toEqual({ marked: largeSessionCardCount + 200 });
    const records = await testDatabase.database.selectFrom("study_progress").select(["pair_id", "studied_at", "box"]).execute();
    expect(records).toHaveLength(largeSessionCardCount + 200);
    expect(records.every((record) => record.studied_at === now.toISOString() && Number(record.box) === 1)).toBe(true);

    // Marked again later: the records that exist are kept (box and all), only their date moves.
    now = new Date(now.getTime() + 3_600_000);
    const ratedId = ids[700] ?? "";
    expect((await learner.post(`/api/subtitle-pairs/${ratedId}/rate/`, { is_correct: true })).status).toBe(200);
    expect((await learner.post(`/api/subtitle-groups/${groupId}/mark-studied/`, { pairIds: ids.slice(600) })).status).toBe(200);
    const rated = await testDatabase.database.selectFrom("study_progress").select(["box", "studied_at", "review_count"]).where("pair_id", "=", ratedId).executeTakeFirstOrThrow();
    expect({ box: Number(rated.box), reviews: Number(rated.review_count), studiedAt: rated.studied_at }).toEqual({ box: 2, reviews: 1, studiedAt: now.toISOString() });
    expect(await testDatabase.database.selectFrom("study_progress").select("pair_id").execute()).toHaveLength(largeSessionCardCount + 200);
  });
});
