import { currentBoxOf, describeSessionSelection, indexProgressByPairId, selectSessionCards, type BoxNumber, type CardProgress, type SessionConfig } from "@atelier/leitner";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresPoolOf } from "../database/postgres-pool.ts";
import { sqliteConnectionOf } from "../database/prepared-query.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { countSessionCardsInDatabase, selectSessionCardsInDatabase, type SessionCard } from "./session-cards-store.ts";

const now = new Date("2026-03-15T10:00:00.000Z");
const learnerKey = "user:learner";
const otherLearnerKey = "anonymous:someone-else";
const dayMilliseconds = 24 * 60 * 60 * 1000;
const startOfToday = Date.UTC(2026, 2, 15);

// Due dates around the clock: past and future day starts, the very instant, and just after it.
const dueDates = [null, ...[-3, -1, 0, 1, 2].map((days) => new Date(startOfToday + days * dayMilliseconds).toISOString()), now.toISOString(), new Date(now.getTime() + 1).toISOString()];

const recordArbitrary = fc.record({
  box: fc.constantFrom<BoxNumber>(1, 2, 3, 4, 5),
  reviewCount: fc.constantFrom(0, 0, 1, 3),
  studied: fc.boolean(),
  dueAt: fc.constantFrom(...dueDates),
});

const pairFields = {
  // Now and then a wide gap, so the walk along positions needs more than its first slice.
  gapBefore: fc.constantFrom(1, 1, 1, 2, 3, 90),
  hidden: fc.integer({ min: 0, max: 4 }).map((draw) => draw === 0),
  record: fc.option(recordArbitrary, { freq: 2 }),
  otherLearnerRecord: fc.option(recordArbitrary, { freq: 3 }),
};

const pairArbitrary = fc.record(pairFields);

const configArbitrary: fc.Arbitrary<SessionConfig> = fc.record(
  {
    mode: fc.constantFrom("study" as const, "test" as const),
    range: fc.constantFrom("new" as const, "in-progress" as const, "memorized" as const, "all" as const, "reviewing" as const),
    cardCount: fc.integer({ min: 1, max: 14 }),
    startIndex: fc.integer({ min: 1, max: 14 }),
    endIndex: fc.integer({ min: 1, max: 14 }),
  },
  { requiredKeys: ["mode", "range"] },
);

type GeneratedRecord = { box: BoxNumber; reviewCount: number; studied: boolean; dueAt: string | null };
type GeneratedPair = { gapBefore: number; hidden: boolean; record: GeneratedRecord | null; otherLearnerRecord: GeneratedRecord | null };

function toProgress(pairId: string, record: GeneratedRecord): CardProgress {
  return {
    pairId,
    box: record.box,
    reviewCount: record.reviewCount,
    correctCount: 0,
    studiedAt: record.studied ? "2026-03-14T08:00:00.000Z" : null,
    lastReviewedAt: record.reviewCount > 0 ? "2026-03-14T09:00:00.000Z" : null,
    dueAt: record.dueAt,
  };
}

/** What the pairs call answered before the selection ran in SQL: the engine over the studied pairs in memory. */
function expectedCards(pairs: readonly { id: string; english: string; swedish: string; confidence: number; hidden: boolean; record: GeneratedRecord | null }[], config: SessionConfig): SessionCard[] {
  const studied = pairs.filter((pair) => !pair.hidden);
  const progressByPairId = indexProgressByPairId(studied.flatMap((pair) => (pair.record === null ? [] : [toProgress(pair.id, pair.record)])));
  const indexById = new Map(studied.map((pair, index) => [pair.id, index]));
  const lineAt = (index: number) => {
    const neighbour = studied[index];
    return neighbour ? { english: neighbour.english, swedish: neighbour.swedish } : null;
  };
  return selectSessionCards(studied, progressByPairId, config, now).map((pair) => {
    const index = indexById.get(pair.id) ?? -1;
    return {
      id: pair.id,
      english: pair.english,
      swedish: pair.swedish,
      current_box: currentBoxOf(progressByPairId.get(pair.id)),
      confidence: pair.confidence,
      context: { before: lineAt(index - 1), after: lineAt(index + 1) },
    };
  });
}

describe.each(testDatabaseEngines)("given a %s database and the engine's session selection", (engine) => {
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await openTestDatabase(engine);
    await testDatabase.database.insertInto("identity_user").values({ id: "owner", password_hash: null, is_active: 1, created_at: "2026-01-01T00:00:00.000Z" }).execute();
  });
  afterAll(async () => {
    await testDatabase.destroy();
  });

  let groupNumber = 0;

  /** Stores a generated group (pairs out of order, records of two learners, hidden pairs) and answers its pairs. */
  async function storeGroup(generatedPairs: readonly GeneratedPair[]) {
    const { database } = testDatabase;
    groupNumber += 1;
    const groupId = `group-${groupNumber}`;
    let position = 0;
    const pairs = generatedPairs.map((generated, index) => {
      position += generated.gapBefore;
      return { ...generated, id: `${groupId}-pair-${index}`, position, english: `English ${index}`, swedish: `Svenska ${index}`, confidence: (index % 4) / 4 };
    });
    await database.insertInto("subtitle_group").values({ id: groupId, owner_id: "owner", name: groupId, is_public: 1, pair_count: pairs.length, alignment_report_json: "{}", created_at: "2026-01-01T00:00:00.000Z" }).execute();
    if (pairs.length > 0) {
      // Inserted out of group order, so only `position` can give the order back.
      const shuffled = [...pairs].reverse();
      await database.insertInto("subtitle_pair").values(shuffled.map(({ id, position, english, swedish, confidence }) => ({ id, group_id: groupId, position, english, swedish, confidence }))).execute();
    }
    const records = pairs.flatMap((pair) => [
      ...(pair.record === null ? [] : [{ learnerKey, pair, record: pair.record }]),
      ...(pair.otherLearnerRecord === null ? [] : [{ learnerKey: otherLearnerKey, pair, record: pair.otherLearnerRecord }]),
    ]);
    if (records.length > 0) {
      await database
        .insertInto("study_progress")
        .values(
          records.map(({ learnerKey: key, pair, record }) => {
            const progress = toProgress(pair.id, record);
            return { learner_key: key, pair_id: pair.id, group_id: groupId, box: progress.box, review_count: progress.reviewCount, correct_count: 0, studied_at: progress.studiedAt, last_reviewed_at: progress.lastReviewedAt, due_at: progress.dueAt, updated_at: "2026-03-14T09:00:00.000Z" };
          }),
        )
        .execute();
    }
    const hidden = pairs.filter((pair) => pair.hidden);
    if (hidden.length > 0) {
      await database.insertInto("study_hidden_pair").values(hidden.map((pair) => ({ learner_key: learnerKey, pair_id: pair.id, group_id: groupId, hidden_at: "2026-03-14T09:00:00.000Z" }))).execute();
    }
    return { groupId, pairs };
  }

  /** Over generated groups and configs, the cards the database chooses (with `options`) are the engine's, in its order. */
  async function expectTheEnginesChoice(groups: fc.Arbitrary<GeneratedPair[]>, configs: fc.Arbitrary<SessionConfig>, options: Parameters<typeof selectSessionCardsInDatabase>[4]) {
    await fc.assert(
      fc.asyncProperty(groups, configs, async (generatedPairs, config) => {
        const { groupId, pairs } = await storeGroup(generatedPairs);
        const chosen = await selectSessionCardsInDatabase(testDatabase.database, learnerKey, groupId, describeSessionSelection(config, now), options);
        expect(chosen).toEqual(expectedCards(pairs, config));
      }),
      { numRuns: 300 },
    );
  }

  // Test sessions over short windows take one statement, over long ones two steps, and walks read slices of positions
  // (on PostgreSQL the first one while the window is read): each path on every group.
  it.each([
    ["as the server chooses", {}],
    ["in two steps, however short the window", { oneStatementUpToPositions: 0, classByClass: false }],
    ["in one statement, however long the window", { oneStatementUpToPositions: Number.MAX_SAFE_INTEGER, classByClass: false }],
    ["in two steps, walking slices of two positions", { oneStatementUpToPositions: 0, firstSliceOfPositions: 2, classByClass: false }],
  ])("should choose the same cards in the same order as selectSessionCards, with the same boxes and context lines, for any group, progress, hidden pairs and config, %s", async (_path, options) => {
    await expectTheEnginesChoice(fc.array(pairArbitrary, { maxLength: 12 }), configArbitrary, options);
  });

  // The load's test sessions (decision 0055): the whole group, every learning state, often once every card is started,
  // which the generated configs above seldom combine.
  const fullyStartedGroupArbitrary = fc.array(fc.record({ ...pairFields, record: recordArbitrary }), { maxLength: 12 });
  // Once every card is started, the server reads the first step from the records (decision 0056); the walk and the one
  // statement are still tried over started groups with that way turned off.
  it.each([
    ["as the server chooses", {}],
    ["in two steps", { oneStatementUpToPositions: 0, classByClass: false }],
    ["in one statement", { oneStatementUpToPositions: Number.MAX_SAFE_INTEGER, classByClass: false }],
    ["from the records once started, walking slices of two positions otherwise", { oneStatementUpToPositions: 0, firstSliceOfPositions: 2 }],
  ])("should choose a test session of the whole group as selectSessionCards does, started or not, %s", async (_path, options) => {
    const wholeGroupTest = fc.record({ mode: fc.constant("test" as const), range: fc.constant("all" as const), cardCount: fc.integer({ min: 1, max: 14 }) });
    await expectTheEnginesChoice(fc.oneof(fc.array(pairArbitrary, { maxLength: 12 }), fullyStartedGroupArbitrary), wholeGroupTest, options);
  });

  // Over 1,024 studied pairs the started records are not counted and the walk runs (decision 0056): every card started
  // but one new card far along the film, one hidden, a few in box 1 due now.
  it("should choose a test session of a film longer than the counted bound, its one new card included, as selectSessionCards does", async () => {
    const dueTomorrow = new Date(startOfToday + dayMilliseconds).toISOString();
    const generatedPairs: GeneratedPair[] = Array.from({ length: 1_030 }, (_, index) => ({
      gapBefore: 1,
      hidden: index === 3,
      record: index === 1_000 ? null : index % 211 === 7 ? { box: 1, reviewCount: 2, studied: true, dueAt: now.toISOString() } : { box: ((index % 3) + 2) as BoxNumber, reviewCount: 1, studied: true, dueAt: dueTomorrow },
      otherLearnerRecord: null,
    }));
    const { groupId, pairs } = await storeGroup(generatedPairs);
    for (const cardCount of [3, 7]) {
      const config: SessionConfig = { mode: "test", range: "all", cardCount };
      const chosen = await selectSessionCardsInDatabase(testDatabase.database, learnerKey, groupId, describeSessionSelection(config, now));
      expect(chosen).toEqual(expectedCards(pairs, config));
      expect(chosen.slice(0, 6).map((card) => card.current_box)).toEqual(Array.from({ length: Math.min(cardCount, 6) }, () => 1));
    }
  });

  /** The SQL of each statement SQLite runs during `work` (empty on PostgreSQL), and the pool's checkouts (0 on SQLite). */
  async function watchStatements<Result>(work: () => Promise<Result>): Promise<{ result: Result; sqliteStatements: string[]; checkouts: number }> {
    const connection = sqliteConnectionOf(testDatabase.database);
    const statementPrototype = connection === undefined ? undefined : (Object.getPrototypeOf(connection.prepare("select 1")) as { all: (...values: unknown[]) => unknown });
    const originalAll = statementPrototype?.all;
    const sqliteStatements: string[] = [];
    if (statementPrototype !== undefined && originalAll !== undefined) {
      statementPrototype.all = function (this: { source: string }, ...values: unknown[]) {
        sqliteStatements.push(this.source);
        return originalAll.apply(this, values);
      };
    }
    const pool = postgresPoolOf(testDatabase.database);
    let checkouts = 0;
    const countCheckout = () => (checkouts += 1);
    pool?.on("acquire", countCheckout);
    try {
      return { result: await work(), sqliteStatements, checkouts };
    } finally {
      pool?.off("acquire", countCheckout);
      if (statementPrototype !== undefined && originalAll !== undefined) statementPrototype.all = originalAll;
    }
  }

  /** The group's session for `config`, selected with the given options while its statements and checkouts are watched. */
  const watchedSelection = (groupId: string, config: SessionConfig) => (options: Parameters<typeof selectSessionCardsInDatabase>[4]) =>
    watchStatements(() => selectSessionCardsInDatabase(testDatabase.database, learnerKey, groupId, describeSessionSelection(config, now), options));

  // Decision 0056: once every card is started, the session comes from the learner's records. A 600-pair film whose six
  // box-1 cards lie past the first 512 positions: the walk would look up 560 records and take a second round trip.
  it("should read a test session of a started film from the learner's records, not by walking the film's pairs", async () => {
    const dueTomorrow = new Date(startOfToday + dayMilliseconds).toISOString();
    const generatedPairs: GeneratedPair[] = Array.from({ length: 600 }, (_, index) => ({
      gapBefore: 1,
      hidden: false,
      record: index >= 560 && index % 7 === 0 ? { box: 1, reviewCount: 2, studied: true, dueAt: now.toISOString() } : { box: ((index % 3) + 2) as BoxNumber, reviewCount: 1, studied: true, dueAt: dueTomorrow },
      otherLearnerRecord: null,
    }));
    const { groupId, pairs } = await storeGroup(generatedPairs);
    const config: SessionConfig = { mode: "test", range: "all", cardCount: 8 };
    const select = watchedSelection(groupId, config);
    // A read driven by the film's pairs joins each pair to its record.
    const walksThePairs = (statements: string[]) => statements.some((statement) => statement.includes('left join "study_progress" as "sp"'));

    const fromRecords = await select({});
    expect(fromRecords.result).toEqual(expectedCards(pairs, config));
    expect(fromRecords.result.map((card) => card.current_box)).toEqual([1, 1, 1, 1, 1, 1, 2, 2]);
    // The walk, asked for: the same cards, by way of the pairs.
    const walked = await select({ classByClass: false });
    expect(walked.result).toEqual(fromRecords.result);
    if (engine === "sqlite") {
      // The count with the classes' seeks, box 1's class, then box 2's: no read of the film's pairs.
      expect(fromRecords.sqliteStatements).toHaveLength(3);
      expect(walksThePairs(fromRecords.sqliteStatements)).toBe(false);
      expect(walksThePairs(walked.sqliteStatements)).toBe(true);
    } else {
      // The window and the early statement in one round trip, where the walk takes a second one past the first slice.
      expect(fromRecords.checkouts).toBe(1);
      expect(walked.checkouts).toBeGreaterThan(1);
    }
  });

  // Decision 0057: a short film with new cards left is read class by class too, its new cards looked for along the film
  // in position order, where the one statement read and sorted every pair. 60 pairs: the first 50 started (one in box 1
  // due now, one new record in box 3), 10 new.
  it("should read a short film's test session with new cards left class by class, without sorting every pair of it", async () => {
    const dueTomorrow = new Date(startOfToday + dayMilliseconds).toISOString();
    const generatedPairs: GeneratedPair[] = Array.from({ length: 60 }, (_, index) => ({
      gapBefore: 1,
      hidden: index === 30,
      record:
        index >= 50
          ? null
          : index === 7
            ? { box: 1, reviewCount: 2, studied: true, dueAt: now.toISOString() }
            : index === 20
              ? { box: 3, reviewCount: 0, studied: false, dueAt: dueTomorrow }
              : { box: ((index % 3) + 2) as BoxNumber, reviewCount: 1, studied: true, dueAt: dueTomorrow },
      otherLearnerRecord: index % 2 === 0 ? { box: 1, reviewCount: 1, studied: true, dueAt: null } : null,
    }));
    const { groupId, pairs } = await storeGroup(generatedPairs);
    const config: SessionConfig = { mode: "test", range: "all", cardCount: 14 };
    const select = watchedSelection(groupId, config);
    // The one statement sorts every pair of the window, each with its record, in test order.
    const sortsEveryPair = (statements: string[]) => statements.some((statement) => statement.includes('left join "study_progress" as "sp"') && statement.includes('order by "urgency", "box"'));

    const byClass = await select({});
    expect(byClass.result).toEqual(expectedCards(pairs, config));
    // Box 1 due now, the ten new cards, the new record of box 3, then box 2's first.
    expect(byClass.result.map((card) => card.id)).toEqual([7, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 20, 0, 3].map((index) => `${groupId}-pair-${index}`));
    const inOneStatement = await select({ classByClass: false });
    expect(inOneStatement.result).toEqual(byClass.result);
    if (engine === "sqlite") {
      // The count with the classes' seeks, then the classes (0, 1), (0, 3) and (1, 2).
      expect(byClass.sqliteStatements).toHaveLength(4);
      expect(sortsEveryPair(byClass.sqliteStatements)).toBe(false);
      expect(sortsEveryPair(inOneStatement.sqliteStatements)).toBe(true);
    }
  });

  // A film as uploaded has no gap between positions: a window's ends are then found by arithmetic, unless the learner
  // hides a pair of it (one group in three here) or a pair has left it (the property tests above, with their gaps).
  it("should choose and count a window of a film without gaps as selectSessionCards does, the learner hiding a pair of it or none", async () => {
    const withoutGaps = fc.array(fc.record({ ...pairFields, gapBefore: fc.constant(1), hidden: fc.integer({ min: 0, max: 30 }).map((draw) => draw === 0) }), { maxLength: 14 });
    await fc.assert(
      fc.asyncProperty(withoutGaps, fc.integer({ min: -2, max: 5 }), configArbitrary, async (generatedPairs, firstPosition, config) => {
        // The film may begin anywhere: positions run on from its first pair's.
        const { groupId, pairs } = await storeGroup(generatedPairs.map((pair, index) => (index === 0 ? { ...pair, gapBefore: firstPosition } : pair)));
        const selection = describeSessionSelection(config, now);
        expect(await selectSessionCardsInDatabase(testDatabase.database, learnerKey, groupId, selection)).toEqual(expectedCards(pairs, config));
        expect(await countSessionCardsInDatabase(testDatabase.database, learnerKey, groupId, selection)).toBe(expectedCards(pairs, config).length);
      }),
      { numRuns: 300 },
    );
  });

  it("should count as many cards as selectSessionCards chooses, for any group, progress, hidden pairs and config", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pairArbitrary, { maxLength: 12 }), configArbitrary, async (generatedPairs: GeneratedPair[], config) => {
        const { groupId, pairs } = await storeGroup(generatedPairs);
        const counted = await countSessionCardsInDatabase(testDatabase.database, learnerKey, groupId, describeSessionSelection(config, now));
        expect(counted).toBe(expectedCards(pairs, config).length);
      }),
      { numRuns: 300 },
    );
  });

  it("should put a card due at this very instant before one due a millisecond later in a test session, as the engine does", async () => {
    const { database } = testDatabase;
    await database.insertInto("subtitle_group").values({ id: "due-group", owner_id: "owner", name: "Due", is_public: 1, pair_count: 2, alignment_report_json: "{}", created_at: "2026-01-01T00:00:00.000Z" }).execute();
    await database
      .insertInto("subtitle_pair")
      .values([
        { id: "due-later", group_id: "due-group", position: 1, english: "Later", swedish: "Senare", confidence: 1 },
        { id: "due-now", group_id: "due-group", position: 2, english: "Now", swedish: "Nu", confidence: 1 },
      ])
      .execute();
    const record = { learner_key: learnerKey, group_id: "due-group", box: 2, review_count: 1, correct_count: 1, studied_at: null, last_reviewed_at: "2026-03-14T09:00:00.000Z", updated_at: "2026-03-14T09:00:00.000Z" };
    await database
      .insertInto("study_progress")
      .values([
        { ...record, pair_id: "due-later", due_at: new Date(now.getTime() + 1).toISOString() },
        { ...record, pair_id: "due-now", due_at: now.toISOString() },
      ])
      .execute();
    const chosen = await selectSessionCardsInDatabase(database, learnerKey, "due-group", describeSessionSelection({ mode: "test", range: "reviewing" }, now));
    expect(chosen.map((card) => card.id)).toEqual(["due-now", "due-later"]);
  });

  // Decision 0050: the first step and the rest in one statement, read in the window's round trip.
  it("should read a short film's test session, new cards first and then the rest, in one round trip with the window on PostgreSQL", async () => {
    const { database } = testDatabase;
    const pool = postgresPoolOf(database);
    const generatedPairs: GeneratedPair[] = Array.from({ length: 6 }, (_, index) => ({
      gapBefore: 1,
      hidden: false,
      // The first four were answered right a day ago and are due tomorrow; the last two are new.
      record: index < 4 ? { box: 2, reviewCount: 1, studied: true, dueAt: new Date(startOfToday + dayMilliseconds).toISOString() } : null,
      otherLearnerRecord: null,
    }));
    const { groupId, pairs } = await storeGroup(generatedPairs);
    const config: SessionConfig = { mode: "test", range: "all", cardCount: 5 };
    let checkouts = 0;
    const countCheckout = () => (checkouts += 1);
    pool?.on("acquire", countCheckout);
    try {
      const chosen = await selectSessionCardsInDatabase(database, learnerKey, groupId, describeSessionSelection(config, now));
      expect(chosen.map((card) => card.id)).toEqual([4, 5, 0, 1, 2].map((index) => `${groupId}-pair-${index}`));
      expect(chosen).toEqual(expectedCards(pairs, config));
    } finally {
      pool?.off("acquire", countCheckout);
    }
    // SQLite reads in this process, with no pool.
    expect(checkouts).toBe(engine === "postgresql" ? 1 : 0);
  });

  it("should answer no cards for a group without pairs, whatever the window", async () => {
    await testDatabase.database.insertInto("subtitle_group").values({ id: "empty-group", owner_id: "owner", name: "Empty", is_public: 1, pair_count: 0, alignment_report_json: "{}", created_at: "2026-01-01T00:00:00.000Z" }).execute();
    const selection = describeSessionSelection({ mode: "test", range: "all", cardCount: 5, startIndex: 3, endIndex: 9 }, now);
    expect(await selectSessionCardsInDatabase(testDatabase.database, learnerKey, "empty-group", selection)).toEqual([]);
  });
});
