import { MEMORIZED_BOX, rateCard, type BoxNumber, type CardProgress } from "@atelier/leitner";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createFixedWindowRateLimiter } from "../rate-limit/fixed-window-rate-limiter.ts";
import { createSessionStore } from "../identity/sessions.ts";
import { countAndRateCardOfLearner, rateCardOfLearner, type CountedRating, type RatingRequest } from "./rating-store.ts";
import { countMemorizedCards, deleteGroup, deleteGroupProgress, deletePair, insertGroupWithPairs, listLearnerProgress, writeProgress } from "./study-store.ts";

const report = {} as Parameters<typeof insertGroupWithPairs>[1]["report"];
const learnerKey = "user:learner";
const otherLearnerKey = "anonymous:other-learner-000000000000000000000";
const pairCount = 6;

const recordArbitrary = fc.record({
  box: fc.constantFrom<BoxNumber>(1, 2, 3, 4, 5),
  reviewCount: fc.integer({ min: 0, max: 9 }),
  correctCount: fc.integer({ min: 0, max: 9 }),
  studiedAt: fc.constantFrom(null, "2026-03-01T08:00:00.000Z"),
  lastReviewedAt: fc.constantFrom(null, "2026-03-02T09:00:00.000Z"),
  dueAt: fc.constantFrom(null, "2026-03-03T00:00:00.000Z"),
});

const ratingArbitrary = fc.record({
  pairIndex: fc.integer({ min: 0, max: pairCount - 1 }),
  isCorrect: fc.boolean(),
  // Moments on both sides of midnight UTC: due dates fall on day starts.
  minutesAfterStart: fc.integer({ min: 0, max: 5 * 24 * 60 }),
});

function progressOf(pairId: string, record: Omit<CardProgress, "pairId">): CardProgress {
  return { pairId, ...record };
}

describe.each(testDatabaseEngines)("given a %s database with a learner's records", (engine) => {
  let testDatabase: TestDatabase;
  const pairIds: string[] = [];

  beforeAll(async () => {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    await database.insertInto("identity_user").values({ id: "owner", password_hash: null, is_active: 1, created_at: "2026-01-01T00:00:00.000Z" }).execute();
    for (const [groupId, isPublic] of [
      ["public-group", true],
      ["private-group", false],
    ] as const) {
      await insertGroupWithPairs(database, { id: groupId, ownerId: "owner", name: groupId, isPublic, report, createdAt: "2026-01-01T00:00:00.000Z" }, Array.from({ length: pairCount }, (_, index) => ({ english: `E${index}`, swedish: `S${index}`, confidence: 1 })));
    }
    const rows = await database.selectFrom("subtitle_pair").select("id").where("group_id", "=", "public-group").orderBy("position").execute();
    pairIds.push(...rows.map((row) => row.id));
  });
  afterAll(() => testDatabase.destroy());

  async function memorizedCounted(key: string): Promise<number> {
    const row = await testDatabase.database
      .selectFrom("study_progress")
      .select((expression) => expression.fn.countAll<number | string>().as("count"))
      .where("learner_key", "=", key)
      .where("box", "=", MEMORIZED_BOX)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  it("should rate as the engine does, from any record or none, and answer the memorized count the records hold", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(recordArbitrary, { freq: 3 }), { minLength: pairCount, maxLength: pairCount }), fc.array(ratingArbitrary, { minLength: 1, maxLength: 12 }), async (records, ratings) => {
        const { database } = testDatabase;
        await deleteGroupProgress(database, learnerKey, "public-group");
        const initial = records.flatMap((record, index) => (record === null ? [] : [{ ...progressOf(pairIds[index] as string, record), groupId: "public-group" }]));
        await writeProgress(database, learnerKey, initial, "2026-03-01T00:00:00.000Z");
        const expected = new Map(initial.map(({ groupId: _groupId, ...record }) => [record.pairId, record as CardProgress]));
        for (const rating of ratings) {
          const pairId = pairIds[rating.pairIndex] as string;
          const now = new Date(Date.UTC(2026, 2, 10) + rating.minutesAfterStart * 60_000);
          const request: RatingRequest = { learnerKey, userId: "learner", memorizedLimit: null, pairId, isCorrect: rating.isCorrect, now };
          const before = expected.get(pairId);
          const saved = rateCard(before, pairId, rating.isCorrect, now);
          expected.set(pairId, saved);
          const outcome = await rateCardOfLearner(database, request);
          expect(outcome).toEqual({ status: "rated", pair: { id: pairId, group_id: "public-group" }, before, saved, memorized: [...expected.values()].filter((record) => record.box === MEMORIZED_BOX).length });
        }
        const stored = (await listLearnerProgress(database, learnerKey)).map(({ groupId: _groupId, ...record }) => record);
        expect(stored.sort((left, right) => left.pairId.localeCompare(right.pairId))).toEqual([...expected.values()].sort((left, right) => left.pairId.localeCompare(right.pairId)));
        expect(await countMemorizedCards(database, learnerKey)).toBe(await memorizedCounted(learnerKey));
      }),
      { numRuns: 25 },
    );
  });

  it("should answer not found for a pair that does not exist or that the learner may not see, and write nothing", async () => {
    const { database } = testDatabase;
    const privatePair = await database.selectFrom("subtitle_pair").select("id").where("group_id", "=", "private-group").executeTakeFirstOrThrow();
    const now = new Date("2026-03-10T10:00:00.000Z");
    for (const pairId of ["no-such-pair", "nul\u0000", privatePair.id]) {
      expect(await rateCardOfLearner(database, { learnerKey: otherLearnerKey, userId: null, memorizedLimit: 5, pairId, isCorrect: true, now })).toEqual({ status: "not-found" });
    }
    expect(await listLearnerProgress(database, otherLearnerKey)).toEqual([]);
    // The owner sees their private group.
    expect(await rateCardOfLearner(database, { learnerKey: "user:owner", userId: "owner", memorizedLimit: null, pairId: privatePair.id, isCorrect: true, now })).toMatchObject({ status: "rated" });
  });

  it("should refuse a learner at the limit and write nothing, and let them rate below it", async () => {
    const { database } = testDatabase;
    const now = new Date("2026-03-10T10:00:00.000Z");
    const memorized = pairIds.slice(0, 4).map((pairId) => ({ ...progressOf(pairId, { box: MEMORIZED_BOX, reviewCount: 4, correctCount: 4, studiedAt: null, lastReviewedAt: null, dueAt: null }), groupId: "public-group" }));
    await writeProgress(database, otherLearnerKey, memorized, now.toISOString());
    const request = { learnerKey: otherLearnerKey, userId: null, memorizedLimit: 4, isCorrect: true, now };
    expect(await rateCardOfLearner(database, { ...request, pairId: pairIds[5] as string })).toEqual({ status: "limit-reached" });
    expect(await listLearnerProgress(database, otherLearnerKey)).toHaveLength(4);
    expect(await rateCardOfLearner(database, { ...request, memorizedLimit: 5, pairId: pairIds[5] as string })).toMatchObject({ status: "rated", memorized: 4 });
  });

  it("should rate ratings sent at once one after another, each answering the count after it, and fail only a faulty one", async () => {
    const { database } = testDatabase;
    const key = "user:at-once";
    const now = new Date("2026-03-10T10:00:00.000Z");
    const nearlyMemorized = pairIds.slice(0, 4).map((pairId) => ({ ...progressOf(pairId, { box: 4, reviewCount: 3, correctCount: 3, studiedAt: null, lastReviewedAt: null, dueAt: null }), groupId: "public-group" }));
    await writeProgress(database, key, nearlyMemorized, now.toISOString());
    const rate = (pairId: string, at: Date) => rateCardOfLearner(database, { learnerKey: key, userId: "at-once", memorizedLimit: null, pairId, isCorrect: true, now: at });
    const outcomes = await Promise.allSettled([...pairIds.slice(0, 4).map((pairId) => rate(pairId, now)), rate(pairIds[4] as string, new Date(Number.NaN))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "rejected"]);
    const memorizedAnswers = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" && outcome.value.status === "rated" ? [outcome.value.memorized] : []));
    // In request order, also when the faulty one made each run alone.
    expect(memorizedAnswers).toEqual([1, 2, 3, 4]);
    expect(await countMemorizedCards(database, key)).toBe(4);
    expect(await listLearnerProgress(database, key)).toHaveLength(4);
  });

  it("should rate ratings of several learners sent at once as if one after another, the same card twice and a limit included", async () => {
    const learners = [
      { learnerKey: "user:batch-a", userId: "batch-a", memorizedLimit: null },
      { learnerKey: "user:batch-b", userId: "batch-b", memorizedLimit: null },
      { learnerKey: "anonymous:batch-c-000000000000000000000000", userId: null, memorizedLimit: 2 },
    ] as const;
    const recordsArbitrary = fc.array(fc.option(recordArbitrary, { freq: 2 }), { minLength: pairCount, maxLength: pairCount });
    const atOnceArbitrary = fc.array(fc.record({ learnerIndex: fc.integer({ min: 0, max: learners.length - 1 }), pairIndex: fc.integer({ min: 0, max: pairCount - 1 }), isCorrect: fc.boolean() }), { minLength: 1, maxLength: 16 });
    await fc.assert(
      fc.asyncProperty(fc.tuple(recordsArbitrary, recordsArbitrary, recordsArbitrary), atOnceArbitrary, fc.integer({ min: 0, max: 5 * 24 * 60 }), async (recordsOfLearners, ratings, minutes) => {
        const { database } = testDatabase;
        const now = new Date(Date.UTC(2026, 2, 10) + minutes * 60_000);
        const expected = new Map<string, Map<string, CardProgress>>();
        for (const [index, learner] of learners.entries()) {
          await deleteGroupProgress(database, learner.learnerKey, "public-group");
          const initial = (recordsOfLearners[index] ?? []).flatMap((record, pairIndex) => (record === null ? [] : [{ ...progressOf(pairIds[pairIndex] as string, record), groupId: "public-group" }]));
          await writeProgress(database, learner.learnerKey, initial, "2026-03-01T00:00:00.000Z");
          expected.set(learner.learnerKey, new Map(initial.map(({ groupId: _groupId, ...record }) => [record.pairId, record as CardProgress])));
        }
        const outcomes = await Promise.all(
          ratings.map(({ learnerIndex, pairIndex, isCorrect }) => rateCardOfLearner(testDatabase.database, { ...(learners[learnerIndex] as (typeof learners)[number]), pairId: pairIds[pairIndex] as string, isCorrect, now })),
        );
        const expectedOutcomes = ratings.map(({ learnerIndex, pairIndex, isCorrect }) => {
          const learner = learners[learnerIndex] as (typeof learners)[number];
          const records = expected.get(learner.learnerKey) as Map<string, CardProgress>;
          const memorizedCount = () => [...records.values()].filter((record) => record.box === MEMORIZED_BOX).length;
          if (learner.memorizedLimit !== null && memorizedCount() >= learner.memorizedLimit) return { status: "limit-reached" };
          const pairId = pairIds[pairIndex] as string;
          const before = records.get(pairId);
          const saved = rateCard(before, pairId, isCorrect, now);
          records.set(pairId, saved);
          return { status: "rated", pair: { id: pairId, group_id: "public-group" }, before, saved, memorized: memorizedCount() };
        });
        expect(outcomes).toEqual(expectedOutcomes);
        for (const learner of learners) {
          const stored = (await listLearnerProgress(database, learner.learnerKey)).map(({ groupId: _groupId, ...record }) => record);
          const byPair = (left: CardProgress, right: CardProgress) => left.pairId.localeCompare(right.pairId);
          expect(stored.sort(byPair)).toEqual([...(expected.get(learner.learnerKey) as Map<string, CardProgress>).values()].sort(byPair));
          expect(await countMemorizedCards(database, learner.learnerKey)).toBe(await memorizedCounted(learner.learnerKey));
        }
      }),
      { numRuns: 80 },
    );
  });

  it("should keep the memorized count equal to the records through writes, deletions and cascades", async () => {
    const { database } = testDatabase;
    const key = "user:counted";
    const groupId = "counted-group";
    await insertGroupWithPairs(database, { id: groupId, ownerId: "owner", name: groupId, isPublic: true, report, createdAt: "2026-01-01T00:00:00.000Z" }, Array.from({ length: 4 }, (_, index) => ({ english: `E${index}`, swedish: `S${index}`, confidence: 1 })));
    const ids = (await database.selectFrom("subtitle_pair").select("id").where("group_id", "=", groupId).orderBy("position").execute()).map((row) => row.id);
    const record = (pairId: string, box: BoxNumber) => ({ ...progressOf(pairId, { box, reviewCount: 1, correctCount: 1, studiedAt: null, lastReviewedAt: null, dueAt: null }), groupId });
    const expectCount = async (count: number) => {
      expect(await memorizedCounted(key)).toBe(count);
      expect(await countMemorizedCards(database, key)).toBe(count);
    };

    await writeProgress(database, key, ids.map((pairId) => record(pairId, MEMORIZED_BOX)), "2026-03-01T00:00:00.000Z");
    await expectCount(4);
    await writeProgress(database, key, [record(ids[0] as string, 2)], "2026-03-01T00:00:00.000Z");
    await expectCount(3);
    await database.updateTable("study_progress").set({ learner_key: "user:someone-else" }).where("learner_key", "=", key).where("pair_id", "=", ids[1] as string).execute();
    await expectCount(2);
    expect(await countMemorizedCards(database, "user:someone-else")).toBe(1);
    await deletePair(database, { id: ids[2] as string, group_id: groupId });
    await expectCount(1);
    // The pair goes by the foreign key's cascade, not by a delete of the records.
    await database.deleteFrom("subtitle_pair").where("id", "=", ids[3] as string).execute();
    await expectCount(0);
    expect(await database.selectFrom("study_learner_memorized").selectAll().where("learner_key", "=", key).execute()).toEqual([]);
    await deleteGroup(database, groupId);
    expect(await countMemorizedCards(database, "user:someone-else")).toBe(0);
  });
});

describe.each(testDatabaseEngines.filter((engine) => engine === "postgresql"))("given a %s database, ratings that count their own study call", (engine) => {
  let testDatabase: TestDatabase;
  const pairIds: string[] = [];
  const now = new Date("2026-03-10T10:00:20.000Z");
  const limit = { maximumRequests: 3, windowMilliseconds: 60_000 };

  beforeAll(async () => {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    await database.insertInto("identity_user").values({ id: "owner", password_hash: null, is_active: 1, created_at: "2026-01-01T00:00:00.000Z" }).execute();
    await insertGroupWithPairs(database, { id: "counted-calls", ownerId: "owner", name: "counted-calls", isPublic: true, report, createdAt: "2026-01-01T00:00:00.000Z" }, Array.from({ length: 8 }, (_, index) => ({ english: `E${index}`, swedish: `S${index}`, confidence: 1 })));
    await insertGroupWithPairs(database, { id: "hidden-calls", ownerId: "owner", name: "hidden-calls", isPublic: false, report, createdAt: "2026-01-01T00:00:00.000Z" }, [{ english: "E", swedish: "S", confidence: 1 }]);
    pairIds.push(...(await database.selectFrom("subtitle_pair").select("id").where("group_id", "=", "counted-calls").orderBy("position").execute()).map((row) => row.id));
  });
  afterAll(() => testDatabase.destroy());

  const limiterOf = () => createFixedWindowRateLimiter({ database: testDatabase.database, scope: "study-api", limit, clock: () => now });
  const requestOf = (key: string, pairId: string): RatingRequest => ({ learnerKey: key, userId: null, memorizedLimit: null, pairId, isCorrect: true, now });
  const countedOf = (answer: CountedRating | undefined) => {
    if (answer?.status !== "counted") throw new Error(`Expected a counted rating, got ${JSON.stringify(answer)}.`);
    return answer;
  };
  const windowCount = async (key: string) =>
    Number((await testDatabase.database.selectFrom("rate_limit_window").select("request_count").where("client_key", "=", key).executeTakeFirst())?.request_count ?? 0);

  it("should count ratings sent at once one after another and rate those within the limit, writing nothing over it", async () => {
    const limiter = limiterOf();
    const key = "user:counted-calls";
    // In the same turn, an uncounted rating of a learner whose key sorts first: the batch runs in learners' order, and
    // each answer must still reach its own request.
    const counted = pairIds.slice(0, 5).map((pairId) => countAndRateCardOfLearner(testDatabase.database, requestOf(key, pairId), limiter.countedInOwnStatement()));
    const uncounted = rateCardOfLearner(testDatabase.database, requestOf("anonymous:counted-first-0000000000000000000", pairIds[7] as string));
    const answers = (await Promise.all(counted)).map(countedOf);
    expect(answers.map((answer) => answer.requestCount)).toEqual([1, 2, 3, 4, 5]);
    expect(answers.map((answer) => (answer.outcome?.status === "rated" ? answer.outcome.pair.id : answer.outcome))).toEqual([...pairIds.slice(0, 3), null, null]);
    expect(await uncounted).toMatchObject({ status: "rated", pair: { id: pairIds[7] } });
    expect((await listLearnerProgress(testDatabase.database, key)).map((record) => record.pairId).sort()).toEqual(pairIds.slice(0, 3).sort());
    expect(await windowCount(key)).toBe(5);
    // The limiter decides on the count as `registerRequest` would: over the limit until the window ends, 40 s on.
    expect(await limiter.countedInOwnStatement().decide(4)).toEqual({ status: "limited", retryAfterSeconds: 40 });
    expect(await windowCount("anonymous:counted-first-0000000000000000000")).toBe(0);
  });

  it("should count a rating of an unknown pair or of one the learner may not see, and rate nothing", async () => {
    const limiter = limiterOf();
    const key = "user:counted-unknown";
    const hiddenPair = await testDatabase.database.selectFrom("subtitle_pair").select("id").where("group_id", "=", "hidden-calls").executeTakeFirstOrThrow();
    for (const [index, pairId] of ["no-such-pair", "nul\u0000", hiddenPair.id].entries()) {
      expect(await countAndRateCardOfLearner(testDatabase.database, requestOf(key, pairId), limiter.countedInOwnStatement())).toEqual({ status: "counted", requestCount: index + 1, outcome: { status: "not-found" } });
    }
    expect(await listLearnerProgress(testDatabase.database, key)).toEqual([]);
  });

  it("should roll a failed rating's count back with it, and count and rate the others of its turn", async () => {
    const limiter = limiterOf();
    const key = "user:counted-failure";
    const rate = (pairId: string, at: Date) => countAndRateCardOfLearner(testDatabase.database, { ...requestOf(key, pairId), now: at }, limiter.countedInOwnStatement());
    const outcomes = await Promise.allSettled([rate(pairIds[0] as string, now), rate(pairIds[1] as string, new Date(Number.NaN)), rate(pairIds[2] as string, now)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await windowCount(key)).toBe(2);
    expect(await listLearnerProgress(testDatabase.database, key)).toHaveLength(2);
  });

  it("should never deadlock with the study calls' counts of the same learners made at the same time", async () => {
    const limiter = createFixedWindowRateLimiter({ database: testDatabase.database, scope: "study-api", limit: { maximumRequests: 10_000, windowMilliseconds: 60_000 }, clock: () => now });
    const keys = Array.from({ length: 6 }, (_, index) => `user:counted-order-${index}`);
    for (let round = 0; round < 20; round += 1) {
      // Ratings in one order, counts in the other, in the same turn, neither the keys' order: each batch locks the
      // windows' rows as it goes, so each must sort them.
      const shuffled = [2, 5, 0, 3, 1, 4].map((index) => keys[index] as string);
      const ratings = shuffled.map((key, index) => countAndRateCardOfLearner(testDatabase.database, requestOf(key, pairIds[index] as string), limiter.countedInOwnStatement()));
      const counts = [...shuffled].reverse().map((key) => limiter.registerRequest(key));
      const settled = await Promise.allSettled([...ratings, ...counts]);
      expect(settled.filter((outcome) => outcome.status === "rejected")).toEqual([]);
    }
    for (const key of keys) expect(await windowCount(key)).toBe(40);
  });

  it("should count and rate on a browser session only while it signs the rating's user in, reading it as the session store does", async () => {
    const { database } = testDatabase;
    const limiter = limiterOf();
    const users = [
      { id: "rater", is_active: 1 },
      { id: "someone-else", is_active: 1 },
      { id: "deactivated", is_active: 0 },
    ];
    for (const user of users) await database.insertInto("identity_user").values({ ...user, password_hash: null, created_at: "2026-01-01T00:00:00.000Z" }).execute();
    const later = "2026-04-01T00:00:00.000Z";
    const sessions: { hash: string; client: "browser" | "app"; user_id: string | null; expires_at: string; holds: boolean }[] = [
      { hash: "holds", client: "browser", user_id: "rater", expires_at: later, holds: true },
      { hash: "expires-now", client: "browser", user_id: "rater", expires_at: now.toISOString(), holds: false },
      { hash: "expires-in-a-millisecond", client: "browser", user_id: "rater", expires_at: new Date(now.getTime() + 1).toISOString(), holds: true },
      { hash: "of-an-app", client: "app", user_id: "rater", expires_at: later, holds: false },
      { hash: "of-someone-else", client: "browser", user_id: "someone-else", expires_at: later, holds: false },
      { hash: "of-a-deactivated-account", client: "browser", user_id: "deactivated", expires_at: later, holds: false },
      { hash: "signed-out", client: "browser", user_id: null, expires_at: later, holds: false },
    ];
    for (const [index, session] of sessions.entries()) {
      await database
        .insertInto("identity_session")
        .values({ id: `session-${index}`, token_hash: session.hash, number: index + 1, client: session.client, user_id: session.user_id, methods_json: "[]", pending_json: null, ip: "", user_agent: "", created_at: "2026-01-01T00:00:00.000Z", last_seen_at: "2026-01-01T00:00:00.000Z", expires_at: session.expires_at })
        .execute();
    }
    const sessionStore = createSessionStore({ database });
    for (const [index, session] of [...sessions, { hash: "no-such-session", holds: false }].entries()) {
      const key = "user:rater";
      const pairId = pairIds[index] as string;
      const before = await windowCount(key);
      const answer = await countAndRateCardOfLearner(database, { ...requestOf(key, pairId), userId: "rater" }, limiter.countedInOwnStatement(), { sessionTokenHash: session.hash });
      const signedInUserId = await sessionStore.findSignedInUserId(session.hash, "browser", now);
      const rated = (await listLearnerProgress(database, key)).some((record) => record.pairId === pairId);
      if (session.holds) {
        expect(signedInUserId).toBe("rater");
        expect(answer).toMatchObject({ status: "counted", requestCount: before + 1, outcome: { status: "rated" } });
        expect(rated).toBe(true);
      } else {
        expect(answer).toEqual({ status: "not-signed-in-as-rater", signedInUserId });
        expect([rated, await windowCount(key)]).toEqual([false, before]);
      }
    }
  });
});
