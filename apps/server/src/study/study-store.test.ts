import type { AlignmentReport } from "@atelier/subtitles";
import { afterEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { insertGroupWithPairs } from "./study-store.ts";

const report: AlignmentReport = {
  offsetMilliseconds: 0,
  frameRateRatio: 1,
  englishCoverage: 1,
  swedishCoverage: 1,
  meanOverlap: 1,
  pairCount: 2_000,
  closelyTimedLinkShare: 1,
  linkTypeCounts: { "1:1": 2_000 },
  englishSentenceCount: 2_000,
  swedishSentenceCount: 2_000,
  multiSentenceCardCount: 0,
  spliceDetected: false,
};

describe.each(testDatabaseEngines)("given a %s database and a group of 2,000 pairs to store", (engine) => {
  let testDatabase: TestDatabase | null = null;
  afterEach(async () => {
    await testDatabase?.destroy();
    testDatabase = null;
  });

  it("should let other callbacks of the event loop run between the batches of pairs, and store every pair", async () => {
    testDatabase = await openTestDatabase(engine);
    const { database } = testDatabase;
    await database.insertInto("identity_user").values({ id: "owner", password_hash: null, is_active: 1, created_at: "2026-01-01T00:00:00.000Z" }).execute();
    const pairs = Array.from({ length: 2_000 }, (_, index) => ({ english: `Sentence ${index}.`, swedish: `Mening ${index}.`, confidence: 1 }));

    // What another visitor's request needs: a turn of the event loop while the pairs are written.
    let turnsWhileStoring = 0;
    let storing = true;
    const countTurns = () => {
      if (!storing) return;
      turnsWhileStoring += 1;
      setImmediate(countTurns);
    };
    setImmediate(countTurns);
    await insertGroupWithPairs(database, { id: "large-group", ownerId: "owner", name: "Large", isPublic: true, report, createdAt: "2026-01-01T00:00:00.000Z" }, pairs);
    storing = false;

    // On SQLite each batch runs on this thread: batches of 100 give about 20 turns, of 400 (too long a stall) about 5.
    expect(turnsWhileStoring).toBeGreaterThanOrEqual(engine === "sqlite" ? 15 : 4);
    const stored = await database.selectFrom("subtitle_pair").select((expression) => expression.fn.countAll<number | string>().as("count")).where("group_id", "=", "large-group").executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(2_000);
  });
});
