// The time of `pnpm backup` (SQLite's online backup, then a quick_check) for a database of 20,000 pairs with a
// review of each by 10 learners; writes bench-results/server-backup.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeBenchResult } from "@atelier/bench";
import { migrateToLatest } from "../src/database/migrations.ts";
import { openDatabase } from "../src/database/open-database.ts";
import { backUpSqliteDatabase } from "../src/operations/sqlite-backup.ts";

const pairCount = Number(process.env.BENCH_BACKUP_PAIRS ?? 20_000);
const learnerCount = 10;
const pairsPerGroup = 500;
const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-backup-bench-"));
const now = new Date("2026-01-01T00:00:00.000Z").toISOString();

try {
  const opened = openDatabase({ databaseUrl: null, dataDirectory });
  await migrateToLatest(opened.database);
  await opened.database.insertInto("identity_user").values({ id: "owner", password_hash: null, is_active: 1, created_at: now }).execute();
  const sentence = "The ferry leaves the harbour at seven, and the painter is already on the pier.";
  for (let groupIndex = 0; groupIndex < pairCount / pairsPerGroup; groupIndex += 1) {
    const groupId = `group-${groupIndex}`;
    await opened.database.transaction().execute(async (transaction) => {
      await transaction.insertInto("subtitle_group").values({ id: groupId, owner_id: "owner", name: `Film ${groupIndex}`, is_public: 1, pair_count: pairsPerGroup, alignment_report_json: "{}", created_at: now }).execute();
      for (let start = 0; start < pairsPerGroup; start += 100) {
        const pairs = Array.from({ length: 100 }, (_, offset) => ({ id: `pair-${groupIndex}-${start + offset}`, group_id: groupId, position: start + offset, english: sentence, swedish: "Färjan går från hamnen klockan sju, och målaren står redan på piren." }));
        await transaction.insertInto("subtitle_pair").values(pairs).execute();
        const progress = pairs.flatMap((pair) =>
          Array.from({ length: learnerCount }, (_, learner) => ({ learner_key: `anonymous:learner-${learner}`, pair_id: pair.id, group_id: groupId, box: 2, review_count: 1, correct_count: 1, studied_at: now, last_reviewed_at: now, due_at: now, updated_at: now })),
        );
        for (let offset = 0; offset < progress.length; offset += 100) await transaction.insertInto("study_progress").values(progress.slice(offset, offset + 100)).execute();
      }
    });
  }

  const idle = await backUpSqliteDatabase({ dataDirectory, destinationPath: path.join(dataDirectory, "backups", "idle.sqlite") });

  await opened.close();

  const written = writeBenchResult({
    name: "server-backup",
    figures: {
      pairs: pairCount,
      studyProgressRows: pairCount * learnerCount,
      databaseMegabytes: Math.round((idle.bytes / 1_048_576) * 10) / 10,
      backupMilliseconds: Math.round(idle.milliseconds),
    },
    notes: [
      `SQLite online backup (better-sqlite3 backup(), every page in one step) plus quick_check of the copy, in one process; ${pairCount} pairs in groups of ${pairsPerGroup}, each reviewed by ${learnerCount} learners. Under load (the server writing from its own process meanwhile) see resilience-faults.json backup.*.`,
    ],
  });
  console.info(`Backup of ${pairCount} pairs (${(idle.bytes / 1_048_576).toFixed(1)} MB): ${Math.round(idle.milliseconds)} ms. Written: ${written}`);
} finally {
  fs.rmSync(dataDirectory, { recursive: true, force: true });
}
