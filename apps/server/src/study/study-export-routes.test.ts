import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createStudyTestClient, type StudyTestClient } from "./testing/study-test-client.ts";
import { createStudyTestApp } from "./testing/study-test-app.ts";

let testDatabase: TestDatabase;
let app: ReturnType<typeof createStudyTestApp>;
const clock = () => new Date("2026-03-02T09:00:00.000Z");

async function signedIn(email: string): Promise<StudyTestClient> {
  const client = createStudyTestClient(app);
  await client.signUp(email);
  return client;
}

async function uploadGroup(owner: StudyTestClient, options: { name?: string } = {}) {
  const response = await owner.upload(options);
  expect(response.status, response.text).toBe(201);
  return response.body.group as { id: string; name: string };
}

async function pairsOf(client: StudyTestClient, groupId: string): Promise<{ id: string }[]> {
  const response = await client.get(`/api/subtitle-groups/${groupId}/pairs/`);
  expect(response.status, response.text).toBe(200);
  return response.body.pairs;
}

describe.each(testDatabaseEngines)("given a learner's decks leaving the study API on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    app = createStudyTestApp(testDatabase, { clock });
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  describe("names with invisible characters", () => {
    it("should strip bidi overrides and zero-width characters from group names and from the export's file name", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner, { name: "Film\u202Egpj.exe\u200B\u2066x\u2069" });
      expect(group.name).toBe("Filmgpj.exex");
      const renamed = await owner.post(`/api/subtitle-groups/${group.id}/rename/`, { name: "\u200FSäsong\uFEFF 2\u202D" });
      expect(renamed.body.group.name).toBe("Säsong 2");
      // A name stored before the cleaning: the export's file name is cleaned all the same.
      await testDatabase.database.updateTable("subtitle_group").set({ name: "Old\u202Etxt.exe" }).where("id", "=", group.id).execute();
      const csv = await owner.get(`/api/subtitle-groups/${group.id}/export.csv`);
      expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="Old_txt.exe.csv"; filename*=UTF-8''Oldtxt.exe.csv`);
    });
  });

  describe("export", () => {
    it("should export the pairs with this learner's boxes as CSV with formula guards and as Anki's tab-separated text", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner, { name: "Tåget: \"del 1\"" });
      const pairs = await pairsOf(owner, group.id);
      await owner.post(`/api/subtitle-pairs/${pairs[0]?.id}/rate/`, { is_correct: true });
      await testDatabase.database.updateTable("subtitle_pair").set({ english: "=HYPERLINK(\"x\")", swedish: "tab\there,\nline" }).where("id", "=", pairs[1]?.id ?? "").execute();

      const csv = await owner.get(`/api/subtitle-groups/${group.id}/export.csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8; header=present");
      expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="Taget_ _del 1.csv"; filename*=UTF-8''${encodeURIComponent('Tåget: "del 1".csv')}`);
      const csvLines = csv.text.split("\r\n");
      expect(csvLines.slice(0, 3)).toEqual(["english,swedish,box", '"Good morning, Anna.","God morgon, Anna.",2', `"'=HYPERLINK(""x"")","tab\there,\nline",1`]);
      expect(csvLines).toHaveLength(1 + 14 + 1);

      const tsv = await owner.get(`/api/subtitle-groups/${group.id}/export.tsv`);
      expect(tsv.headers.get("Content-Type")).toBe("text/tab-separated-values; charset=utf-8");
      expect(tsv.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Taget_ _del 1.txt"/);
      const tsvLines = tsv.text.split("\n");
      expect(tsvLines.slice(0, 4)).toEqual(["#separator:tab", "#html:false", "Good morning, Anna.\tGod morgon, Anna.\t2", '=HYPERLINK("x")\ttab here, line\t1']);
      expect(tsvLines.slice(2, -1).every((line) => line.split("\t").length === 3)).toBe(true);
    });
  });
});
