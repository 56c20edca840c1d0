import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { findRatingsNotSaved, type SavedProgress } from "./support/acknowledged-ratings.ts";
import { startAtelierServer } from "./support/atelier-server.ts";
import { recordFaultFigures } from "./support/fault-figures.ts";
import { repositoryDirectory, runPnpm } from "./support/pnpm.ts";
import { seedPublicGroup } from "./support/seed.ts";
import { resilienceSettings } from "./support/settings.ts";
import { createLoadAgent, StudyClient } from "./support/study-client.ts";
import { runStudyLoad, type StudyLoadProgress } from "./support/study-load.ts";

const { loadLearners } = resilienceSettings;

/** `pnpm backup` or `pnpm restore` at the repository's root as docs/deploy.md runs them: apps/server's compiled dist/backup.js and dist/restore.js. */
async function runServerScript(script: "backup" | "restore", args: string[], environment: Record<string, string>): Promise<string> {
  const { stdout } = await runPnpm([script, ...args], { directory: repositoryDirectory, environment });
  return stdout;
}

describe("given a SQLite server backed up with pnpm backup while learners study", () => {
  it(
    "should restore into a fresh data directory a database that holds every rating answered before the backup began",
    async () => {
      const agent = createLoadAgent(loadLearners + 10);
      const server = await startAtelierServer();
      const restoreFolder = mkdtempSync(path.join(tmpdir(), "atelier-restore-"));
      let restored: Awaited<ReturnType<typeof startAtelierServer>> | null = null;
      try {
        const { groupId } = await seedPublicGroup(server, agent);
        const controller = new AbortController();
        const progress: StudyLoadProgress = { started: false, acknowledgedRatings: 0 };
        const load = runStudyLoad({ server, agent, groupId, learners: loadLearners, durationMilliseconds: 120_000, signal: controller.signal, progress });
        while (progress.acknowledgedRatings < loadLearners * 3) await new Promise((resolve) => setTimeout(resolve, 50));

        const answeredBeforeBackup = progress.acknowledgedRatings;
        const backupPath = path.join(restoreFolder, "backups", "under-load.sqlite");
        const startedAt = performance.now();
        const backupOutput = await runServerScript("backup", [backupPath], { DATA_DIR: server.dataDirectory });
        const backupMilliseconds = performance.now() - startedAt;
        const answeredDuringBackup = progress.acknowledgedRatings - answeredBeforeBackup;
        controller.abort();
        const result = await load;
        expect(backupOutput).toMatch(/^Backed up .* to .*under-load\.sqlite: [\d.]+ MB in \d+ ms\.$/m);
        // The learners were not held up by the backup: every request they made was answered 200.
        expect(result.samples.filter((sample) => sample.status !== 200)).toEqual([]);

        const freshDataDirectory = path.join(restoreFolder, "data");
        const restoreOutput = await runServerScript("restore", [backupPath], { DATA_DIR: freshDataDirectory });
        expect(restoreOutput).toMatch(/^Restored .*atelier\.sqlite\. Start the server\.$/m);
        const sqlite = new SqliteDatabase(path.join(freshDataDirectory, "atelier.sqlite"), { readonly: true });
        let saved: SavedProgress[];
        try {
          saved = sqlite.prepare("SELECT learner_key, pair_id, box, review_count FROM study_progress").all() as SavedProgress[];
        } finally {
          sqlite.close();
        }
        // Ratings answered while the backup ran may or may not be in it: each counts as uncertain.
        const beforeBackup = result.acknowledgedRatings.slice(0, answeredBeforeBackup);
        const uncertainRatings = new Map<string, string[]>();
        for (const rating of result.acknowledgedRatings.slice(answeredBeforeBackup)) uncertainRatings.set(rating.learnerKey, [...(uncertainRatings.get(rating.learnerKey) ?? []), rating.pairId]);
        for (const [learnerKey, pairIds] of result.uncertainRatings) uncertainRatings.set(learnerKey, [...(uncertainRatings.get(learnerKey) ?? []), ...pairIds]);
        const { problems, acknowledgedCards } = findRatingsNotSaved({ acknowledgedRatings: beforeBackup, uncertainRatings }, saved);
        console.info(
          `Backup under ${loadLearners} learners: ${Math.round(backupMilliseconds)} ms (the command, pnpm's and Node's start included), ${answeredBeforeBackup} ratings answered before it, ${answeredDuringBackup} during it; ` +
            `${acknowledgedCards - problems.length} of ${acknowledgedCards} learner cards found in the restored database.`,
        );
        expect(problems).toEqual([]);

        // The restored directory serves: a learner from before the backup finds its card there.
        restored = await startAtelierServer({ dataDirectory: freshDataDirectory });
        const first = beforeBackup[0]!;
        const learner = new StudyClient(restored, agent);
        learner.cookies.set("learner_id", first.learnerKey.slice("anonymous:".length));
        const stats = await learner.send("GET", `/api/subtitle-groups/${groupId}/stats/`);
        expect(stats.status).toBe(200);
        expect((stats.body.pairs as { id: string; review_count?: number }[]).some((pair) => pair.id === first.pairId)).toBe(true);

        recordFaultFigures({
          "backup.commandMilliseconds": Math.round(backupMilliseconds),
          "backup.ratingsAnsweredBefore": answeredBeforeBackup,
          "backup.ratingsAnsweredDuring": answeredDuringBackup,
          "backup.cardsFoundAfterRestore": acknowledgedCards - problems.length,
          "backup.cardsLost": problems.length,
        });
      } finally {
        await agent.close();
        await restored?.stop({ keepData: true });
        await server.stop();
        rmSync(restoreFolder, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
