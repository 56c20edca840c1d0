import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startAtelierServer } from "./support/atelier-server.ts";
import { recordFaultFigures } from "./support/fault-figures.ts";
import { seedPublicGroup } from "./support/seed.ts";
import { resilienceSettings } from "./support/settings.ts";
import { createLoadAgent, StudyClient } from "./support/study-client.ts";
import { runStudyLoad, type AcknowledgedRating, type StudyLoadProgress } from "./support/study-load.ts";

const { loadLearners, killAfterSeconds } = resilienceSettings;

type SavedProgress = { learner_key: string; pair_id: string; box: number; review_count: number };

/** Per learner and pair: how many ratings were answered 200, and the box of the last one. */
function acknowledgedByCard(ratings: readonly AcknowledgedRating[]): Map<string, { learnerKey: string; pairId: string; count: number; lastBox: number }> {
  const cards = new Map<string, { learnerKey: string; pairId: string; count: number; lastBox: number }>();
  for (const rating of ratings) {
    const key = `${rating.learnerKey} ${rating.pairId}`;
    const card = cards.get(key) ?? { learnerKey: rating.learnerKey, pairId: rating.pairId, count: 0, lastBox: 0 };
    card.count += 1;
    card.lastBox = rating.box;
    cards.set(key, card);
  }
  return cards;
}

async function waitUntil(condition: () => boolean, timeoutMilliseconds: number): Promise<void> {
  const deadline = Date.now() + timeoutMilliseconds;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`The load did not get far enough within ${timeoutMilliseconds / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("given a SQLite server killed with SIGKILL in the middle of the load", () => {
  it(
    "should keep every rating it answered 200 after it is started again on the same data directory",
    async () => {
      const agent = createLoadAgent(loadLearners + 10);
      const server = await startAtelierServer();
      let restarted: Awaited<ReturnType<typeof startAtelierServer>> | null = null;
      try {
        const { groupId } = await seedPublicGroup(server, agent);
        const controller = new AbortController();
        const progress: StudyLoadProgress = { started: false, acknowledgedRatings: 0 };
        const load = runStudyLoad({ server, agent, groupId, learners: loadLearners, durationMilliseconds: (killAfterSeconds + 120) * 1000, signal: controller.signal, progress });
        // Mid-load: KILL_AFTER_SECONDS into the study loops, and not before every learner has had a few ratings saved.
        await waitUntil(() => progress.started, 60_000);
        await new Promise((resolve) => setTimeout(resolve, killAfterSeconds * 1000));
        await waitUntil(() => progress.acknowledgedRatings >= loadLearners * 3, 60_000);
        // The learners stop after the request they are waiting for, which the kill fails: those ratings are uncertain.
        controller.abort();
        await server.kill();
        const result = await load;
        const answeredBeforeKill = result.samples.filter((sample) => sample.status !== 0);
        expect(answeredBeforeKill.filter((sample) => sample.status !== 200)).toEqual([]);
        expect(result.acknowledgedRatings.length).toBeGreaterThanOrEqual(loadLearners * 3);

        restarted = await startAtelierServer({ dataDirectory: server.dataDirectory, port: server.port });
        const sqlite = new SqliteDatabase(path.join(server.dataDirectory, "atelier.sqlite"), { readonly: true });
        let saved: SavedProgress[];
        try {
          saved = sqlite.prepare("SELECT learner_key, pair_id, box, review_count FROM study_progress").all() as SavedProgress[];
        } finally {
          sqlite.close();
        }
        const savedByCard = new Map(saved.map((row) => [`${row.learner_key} ${row.pair_id}`, row]));

        const problems: string[] = [];
        const acknowledged = acknowledgedByCard(result.acknowledgedRatings);
        for (const [key, card] of acknowledged) {
          const row = savedByCard.get(key);
          const uncertain = (result.uncertainRatings.get(card.learnerKey) ?? []).filter((pairId) => pairId === card.pairId).length;
          if (!row) problems.push(`${key}: ${card.count} ratings answered 200, none saved`);
          else if (row.review_count < card.count || row.review_count > card.count + uncertain) problems.push(`${key}: ${card.count} ratings answered 200, ${row.review_count} saved`);
          else if (row.review_count === card.count && row.box !== card.lastBox) problems.push(`${key}: box ${card.lastBox} answered, box ${row.box} saved`);
        }
        const uncertainCount = [...result.uncertainRatings.values()].reduce((sum, pairIds) => sum + pairIds.length, 0);
        console.info(
          `SIGKILL after ${killAfterSeconds} s of ${loadLearners} learners: ${result.acknowledgedRatings.length} ratings answered 200 ` +
            `(${acknowledged.size} learner cards), ${uncertainCount} in flight at the kill; ${acknowledged.size - problems.length} of ${acknowledged.size} cards found as answered after the restart.`,
        );
        expect(problems).toEqual([]);

        // The restarted server answers the same learners from the same data.
        const firstRating = result.acknowledgedRatings[0]!;
        const learner = new StudyClient(restarted, agent);
        learner.cookies.set("learner_id", firstRating.learnerKey.slice("anonymous:".length));
        const stats = await learner.send("GET", `/api/subtitle-groups/${groupId}/stats/`);
        expect(stats.status).toBe(200);
        expect((stats.body.pairs as { id: string; current_box: number }[]).find((pair) => pair.id === firstRating.pairId)?.current_box).toBe(savedByCard.get(`${firstRating.learnerKey} ${firstRating.pairId}`)?.box);

        recordFaultFigures({
          "sigkill.acknowledgedRatings": result.acknowledgedRatings.length,
          "sigkill.acknowledgedCards": acknowledged.size,
          "sigkill.cardsFoundAfterRestart": acknowledged.size - problems.length,
          "sigkill.ratingsInFlightAtKill": uncertainCount,
        });
      } finally {
        await agent.close();
        await restarted?.stop({ keepData: true });
        await server.stop();
      }
    },
    (killAfterSeconds + 180) * 1000,
  );
});
