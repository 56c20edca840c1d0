import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startAtelierServer } from "./support/atelier-server.ts";
import { createSharedPostgresDatabase, findPostgresBinDirectory, postgresTestsEnabled } from "./support/postgres.ts";
import { seedPublicGroup } from "./support/seed.ts";
import { createLoadAgent, StudyClient } from "./support/study-client.ts";

const run = promisify(execFile);

describe.runIf(postgresTestsEnabled)("given a PostgreSQL server backed up with pg_dump while it runs", () => {
  it("should serve every answered rating from a database restored with pg_restore", async () => {
    const binDirectory = findPostgresBinDirectory();
    const original = await createSharedPostgresDatabase();
    const restoredDatabase = await createSharedPostgresDatabase();
    const folder = mkdtempSync(path.join(tmpdir(), "atelier-pg-dump-"));
    const agent = createLoadAgent(5);
    const environment = { DATABASE_URL: original.url, LOCAL_OIDC_PROVIDER: "false" };
    const server = await startAtelierServer({ environment });
    let restored: Awaited<ReturnType<typeof startAtelierServer>> | null = null;
    try {
      const { groupId } = await seedPublicGroup(server, agent);
      const learner = new StudyClient(server, agent);
      await learner.fetchCsrfToken();
      const session = await learner.send("GET", `/api/subtitle-groups/${groupId}/pairs/?mode=test&cardCount=5`);
      const answered = new Map<string, number>();
      for (const card of session.body.pairs as { id: string }[]) {
        const rating = await learner.send("POST", `/api/subtitle-pairs/${card.id}/rate/`, { is_correct: true });
        expect(rating.status).toBe(200);
        answered.set(card.id, rating.body.pair.current_box as number);
      }

      const dumpPath = path.join(folder, "atelier.dump");
      await run(path.join(binDirectory, "pg_dump"), ["--format=custom", `--file=${dumpPath}`, `--dbname=${original.url}`]);
      await run(path.join(binDirectory, "pg_restore"), ["--no-owner", `--dbname=${restoredDatabase.url}`, dumpPath]);

      restored = await startAtelierServer({ environment: { ...environment, DATABASE_URL: restoredDatabase.url } });
      const sameLearner = new StudyClient(restored, agent);
      sameLearner.cookies.set("learner_id", learner.cookies.get("learner_id")!);
      const stats = await sameLearner.send("GET", `/api/subtitle-groups/${groupId}/stats/`);
      expect(stats.status).toBe(200);
      const boxes = new Map((stats.body.pairs as { id: string; current_box: number }[]).map((pair) => [pair.id, pair.current_box]));
      expect(answered.size).toBe(5);
      for (const [pairId, box] of answered) expect(boxes.get(pairId)).toBe(box);
    } finally {
      await agent.close();
      await restored?.stop();
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
      await original.drop();
      await restoredDatabase.drop();
    }
  }, 120_000);
});
