// An anonymous learner with every card one answer from memorized sends all those answers at once: how many cards end
// up memorized, on SQLite and on PostgreSQL (the limit is 5). Writes bench-results/anonymous-race.json.
import { writeBenchResult } from "@atelier/bench";
import { closeSubtitleParseWorkers } from "@atelier/subtitles/node";
import { openTestDatabase, testDatabaseEngines } from "../src/database/test-databases.ts";
import { createStudyTestApp } from "../src/study/testing/study-test-app.ts";
import { createStudyTestClient } from "../src/study/testing/study-test-client.ts";

const figures: Record<string, number> = {};
for (const engine of testDatabaseEngines) {
  const testDatabase = await openTestDatabase(engine);
  try {
    const app = createStudyTestApp(testDatabase);
    const owner = createStudyTestClient(app);
    await owner.signUp("owner@example.ch");
    const upload = await owner.upload();
    const groupId = (upload.body as { group: { id: string } }).group.id;
    const pairs = ((await owner.get(`/api/subtitle-groups/${groupId}/pairs/?range=all&count=250`)).body as { pairs: { id: string }[] }).pairs.slice(0, 30);
    const visitor = createStudyTestClient(app);
    for (const pair of pairs) for (let answer = 0; answer < 3; answer += 1) await visitor.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: true });
    await Promise.all(pairs.map((pair) => visitor.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: true })));
    const stats = (await visitor.get(`/api/subtitle-groups/${groupId}/stats/`)).body as { memorized: number };
    figures[engine] = stats.memorized;
    console.info(`${engine}: ${pairs.length} cards in box 4, all rated at once → ${stats.memorized} memorized (limit 5)`);
  } finally {
    await testDatabase.destroy();
  }
}
await closeSubtitleParseWorkers();
console.info(`Written: ${writeBenchResult({ name: "anonymous-race", figures, notes: ["The fixture group's cards (at most 30) brought to box 4 one by one, then every last answer sent at once through app.request()."] })}`);
