import { computeGroupStatistics, currentBoxOf, forecastDueCards, indexProgressByPairId, type BoxNumber, type CardProgress } from "@atelier/leitner";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { doubtfulPairConfidence, readGroupStatistics, readPreviewPage, type PreviewPair } from "./group-stats-store.ts";

const now = new Date("2026-03-15T10:00:00.000Z");
const learnerKey = "user:learner";
const otherLearnerKey = "anonymous:someone-else";
const dayMilliseconds = 24 * 60 * 60 * 1000;
const startOfToday = Date.UTC(2026, 2, 15);

// Due dates around the clock and across the forecast's 7 days: day starts before, within and after it, the very
// instant, a millisecond later, and times within a day.
const dueDates = [
  null,
  ...[-3, -1, 0, 1, 2, 6, 7, 30].map((days) => new Date(startOfToday + days * dayMilliseconds).toISOString()),
  now.toISOString(),
  new Date(now.getTime() + 1).toISOString(),
  new Date(startOfToday + 3 * dayMilliseconds + 5 * 60 * 60 * 1000).toISOString(),
  new Date(startOfToday + 7 * dayMilliseconds - 1).toISOString(),
];

const recordArbitrary = fc
  .record({
    box: fc.constantFrom<BoxNumber>(1, 2, 3, 4, 5),
    reviewCount: fc.constantFrom(0, 0, 1, 3, 8),
    correctShare: fc.constantFrom(0, 0.5, 1),
    studied: fc.boolean(),
    dueAt: fc.constantFrom(...dueDates),
  })
  .map(({ correctShare, ...record }) => ({ ...record, correctCount: Math.floor(record.reviewCount * correctShare) }));

const pairFields = {
  gapBefore: fc.constantFrom(1, 1, 1, 2, 40),
  hidden: fc.integer({ min: 0, max: 4 }).map((draw) => draw === 0),
  hiddenByOtherLearner: fc.integer({ min: 0, max: 4 }).map((draw) => draw === 0),
  // Either side of the doubtful threshold, and on it.
  confidence: fc.constantFrom(0, 0.3, 0.49, doubtfulPairConfidence, 0.51, 0.9, 1),
  record: fc.option(recordArbitrary, { freq: 2 }),
  otherLearnerRecord: fc.option(recordArbitrary, { freq: 3 }),
};

const pairArbitrary = fc.record(pairFields);

type GeneratedRecord = { box: BoxNumber; reviewCount: number; correctCount: number; studied: boolean; dueAt: string | null };
type GeneratedPair = { gapBefore: number; hidden: boolean; hiddenByOtherLearner: boolean; confidence: number; record: GeneratedRecord | null; otherLearnerRecord: GeneratedRecord | null };
type StoredPair = GeneratedPair & { id: string; position: number; english: string; swedish: string };

function toProgress(pairId: string, record: GeneratedRecord): CardProgress {
  return {
    pairId,
    box: record.box,
    reviewCount: record.reviewCount,
    correctCount: record.correctCount,
    studiedAt: record.studied ? "2026-03-14T08:00:00.000Z" : null,
    lastReviewedAt: record.reviewCount > 0 ? "2026-03-14T09:00:00.000Z" : null,
    dueAt: record.dueAt,
  };
}

/** The pairs this learner studies, in film order, each numbered and with its box, as the engine sees them in memory. */
function studiedPairs(pairs: readonly StoredPair[]): PreviewPair[] {
  const studied = pairs.filter((pair) => !pair.hidden);
  return studied.map((pair, index) => ({
    id: pair.id,
    english: pair.english,
    swedish: pair.swedish,
    current_box: currentBoxOf(pair.record === null ? undefined : toProgress(pair.id, pair.record)),
    confidence: pair.confidence,
    number: index + 1,
  }));
}

describe.each(testDatabaseEngines)("given a %s database and the engine's group statistics", (engine) => {
  let testDatabase: TestDatabase;
  let groupNumber = 0;
  beforeAll(async () => {
    testDatabase = await openTestDatabase(engine);
    await testDatabase.database.insertInto("identity_user").values({ id: "owner", password_hash: null, is_active: 1, created_at: "2026-01-01T00:00:00.000Z" }).execute();
  });
  afterAll(async () => {
    await testDatabase.destroy();
  });

  /** Stores a generated group (pairs out of order, records and hidden pairs of two learners) and answers its pairs. */
  async function storeGroup(generatedPairs: readonly GeneratedPair[]): Promise<{ group: { id: string; pair_count: number }; pairs: StoredPair[] }> {
    const { database } = testDatabase;
    groupNumber += 1;
    const groupId = `group-${groupNumber}`;
    let position = 0;
    const pairs = generatedPairs.map((generated, index) => {
      position += generated.gapBefore;
      return { ...generated, id: `${groupId}-pair-${index}`, position, english: `English ${index}`, swedish: `Svenska ${index}` };
    });
    await database.insertInto("subtitle_group").values({ id: groupId, owner_id: "owner", name: groupId, is_public: 1, pair_count: pairs.length, alignment_report_json: "{}", created_at: "2026-01-01T00:00:00.000Z" }).execute();
    if (pairs.length > 0) {
      await database
        .insertInto("subtitle_pair")
        .values([...pairs].reverse().map(({ id, position: pairPosition, english, swedish, confidence }) => ({ id, group_id: groupId, position: pairPosition, english, swedish, confidence })))
        .execute();
    }
    const records = pairs.flatMap((pair) => [
      ...(pair.record === null ? [] : [{ key: learnerKey, pair, record: pair.record }]),
      ...(pair.otherLearnerRecord === null ? [] : [{ key: otherLearnerKey, pair, record: pair.otherLearnerRecord }]),
    ]);
    if (records.length > 0) {
      await database
        .insertInto("study_progress")
        .values(
          records.map(({ key, pair, record }) => {
            const progress = toProgress(pair.id, record);
            return { learner_key: key, pair_id: pair.id, group_id: groupId, box: progress.box, review_count: progress.reviewCount, correct_count: progress.correctCount, studied_at: progress.studiedAt, last_reviewed_at: progress.lastReviewedAt, due_at: progress.dueAt, updated_at: "2026-03-14T09:00:00.000Z" };
          }),
        )
        .execute();
    }
    const hidden = pairs.flatMap((pair) => [...(pair.hidden ? [{ key: learnerKey, pair }] : []), ...(pair.hiddenByOtherLearner ? [{ key: otherLearnerKey, pair }] : [])]);
    if (hidden.length > 0) {
      await database.insertInto("study_hidden_pair").values(hidden.map(({ key, pair }) => ({ learner_key: key, pair_id: pair.id, group_id: groupId, hidden_at: "2026-03-14T09:00:00.000Z" }))).execute();
    }
    return { group: { id: groupId, pair_count: pairs.length }, pairs };
  }

  it("should count the same stats, forecast, doubtful and hidden pairs as the engine over the studied pairs in memory, with the preview's first page", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pairArbitrary, { maxLength: 14 }), fc.integer({ min: 1, max: 6 }), async (generatedPairs, pageSize) => {
        const { group, pairs } = await storeGroup(generatedPairs);
        const studied = pairs.filter((pair) => !pair.hidden);
        const records = studied.flatMap((pair) => (pair.record === null ? [] : [toProgress(pair.id, pair.record)]));

        const reading = await readGroupStatistics(testDatabase.database, learnerKey, group.id, now, pageSize);
        expect(reading.statistics).toEqual(computeGroupStatistics(studied, indexProgressByPairId(records), now));
        expect(reading.dueForecast).toEqual(forecastDueCards(records, now));
        expect(reading.doubtfulCount).toBe(studied.filter((pair) => pair.confidence < doubtfulPairConfidence).length);
        expect(reading.hiddenPairs).toEqual(pairs.filter((pair) => pair.hidden).map(({ id, english, swedish }) => ({ id, english, swedish })));
        expect(reading.firstPage).toEqual({ pairs: studiedPairs(pairs).slice(0, pageSize), page: 1, page_size: pageSize, total: studied.length });
      }),
      { numRuns: 200 },
    );
  });

  // A film as uploaded has no gap between positions: its pages are then ranges of positions, unless the learner hides
  // a pair of it (one film in three here) or a pair has left it (gaps, as above). Other learners' hidden pairs change nothing.
  const withoutGaps = fc.tuple(fc.integer({ min: -2, max: 5 }), fc.array(fc.record({ ...pairFields, gapBefore: fc.constant(1), hidden: fc.integer({ min: 0, max: 30 }).map((draw) => draw === 0) }), { maxLength: 14 })).map(([firstPosition, pairs]) => pairs.map((pair, index) => (index === 0 ? { ...pair, gapBefore: firstPosition } : pair)));

  it.each([
    ["any film", fc.array(pairArbitrary, { maxLength: 14 })],
    ["a film without gaps", withoutGaps],
  ])("should page through the studied pairs, or only the doubtful ones, each with its number in the film, as slicing them in memory does, over %s", async (_films, films) => {
    await fc.assert(
      fc.asyncProperty(
        films,
        fc.record({ page: fc.integer({ min: 1, max: 6 }), pageSize: fc.integer({ min: 1, max: 5 }), onlyDoubtful: fc.boolean() }),
        async (generatedPairs, request) => {
          const { group, pairs } = await storeGroup(generatedPairs);
          const listed = studiedPairs(pairs).filter((pair) => !request.onlyDoubtful || pair.confidence < doubtfulPairConfidence);
          // A page past the last answers the last one.
          const page = Math.min(request.page, Math.max(1, Math.ceil(listed.length / request.pageSize)));
          expect(await readPreviewPage(testDatabase.database, learnerKey, group, request)).toEqual({
            pairs: listed.slice((page - 1) * request.pageSize, page * request.pageSize),
            page,
            page_size: request.pageSize,
            total: listed.length,
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("should count nothing but the group's size for a learner without records or hidden pairs", async () => {
    const { group } = await storeGroup([{ gapBefore: 1, hidden: false, hiddenByOtherLearner: true, confidence: 0.2, record: null, otherLearnerRecord: { box: 5, reviewCount: 4, correctCount: 4, studied: false, dueAt: null } }]);
    const reading = await readGroupStatistics(testDatabase.database, "user:newcomer", group.id, now, 10);
    expect(reading).toMatchObject({ statistics: { total: 1, not_started: 1, memorized: 0, total_reviews: 0 }, dueForecast: [0, 0, 0, 0, 0, 0, 0], doubtfulCount: 1, hiddenPairs: [] });
  });
});
