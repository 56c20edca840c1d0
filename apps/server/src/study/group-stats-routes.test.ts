import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { groupNotFoundMessage } from "./study-routes.ts";
import { createStudyTestClient, type StudyTestClient } from "./testing/study-test-client.ts";
import { createStudyTestApp } from "./testing/study-test-app.ts";

let testDatabase: TestDatabase;
let app: ReturnType<typeof createStudyTestApp>;
const clock = () => new Date("2026-03-02T09:00:00.000Z");

type PreviewPair = { id: string; english: string; swedish: string; current_box: number; confidence: number; number: number };

async function signedIn(email: string): Promise<StudyTestClient> {
  const client = createStudyTestClient(app);
  await client.signUp(email);
  return client;
}

/** The fixture's group of 14 pairs, uploaded by `owner`. */
async function uploadGroup(owner: StudyTestClient, isPublic = "true"): Promise<string> {
  const response = await owner.upload({ isPublic });
  expect(response.status, response.text).toBe(201);
  return response.body.group.id as string;
}

async function previewOf(client: StudyTestClient, groupId: string, query: string) {
  const response = await client.get(`/api/subtitle-groups/${groupId}/preview/${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body as { pairs: PreviewPair[]; page: number; page_size: number; total: number };
}

async function memorize(client: StudyTestClient, pairId: string) {
  for (let answer = 0; answer < 4; answer += 1) expect((await client.post(`/api/subtitle-pairs/${pairId}/rate/`, { is_correct: true })).status).toBe(200);
}

describe.each(testDatabaseEngines)("given a group's stats, preview and available cards on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    app = createStudyTestApp(testDatabase, { clock });
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should answer the preview's first page as the stats' pairs, 10 unless the query asks for another size, with how many there are", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const stats = (await owner.get(`/api/subtitle-groups/${groupId}/stats/`)).body;
    expect(stats.pairs.map((pair: PreviewPair) => pair.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(stats.pairs[0]).toEqual({ id: expect.any(String), english: "Good morning, Anna.", swedish: "God morgon, Anna.", current_box: 1, confidence: expect.any(Number), number: 1 });
    expect(stats).toMatchObject({ total: 14, pairs_page: { page: 1, page_size: 10, total: 14 }, doubtful_count: 0, hidden_pairs: [] });
    const small = (await owner.get(`/api/subtitle-groups/${groupId}/stats/?page_size=3`)).body;
    expect(small.pairs).toEqual(stats.pairs.slice(0, 3));
    expect(small.pairs_page).toEqual({ page: 1, page_size: 3, total: 14 });
  });

  it("should refuse a page size or page that is not a whole number within bounds, with a sentence", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    for (const query of ["?page_size=0", "?page_size=101", "?page_size=ten", "?page_size=2.5"]) {
      expect(await owner.get(`/api/subtitle-groups/${groupId}/stats/${query}`)).toMatchObject({ status: 400, body: { error: "page_size must be a whole number from 1 to 100." } });
      expect(await owner.get(`/api/subtitle-groups/${groupId}/preview/${query}`)).toMatchObject({ status: 400, body: { error: "page_size must be a whole number from 1 to 100." } });
    }
    expect(await owner.get(`/api/subtitle-groups/${groupId}/preview/?page=0`)).toMatchObject({ status: 400, body: { error: "page must be a whole number of 1 or more." } });
    expect(await owner.get(`/api/subtitle-groups/${groupId}/preview/?only_doubtful=maybe`)).toMatchObject({ status: 400, body: { error: "only_doubtful must be 1 or 0." } });
  });

  it("should page through the pairs the learner studies, numbered in film order, and answer the last page for a page past it", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const learner = await signedIn("learner@example.ch");
    const firstPage = await previewOf(learner, groupId, "?page=1&page_size=5");
    const [hidden] = firstPage.pairs;
    expect((await learner.post(`/api/subtitle-pairs/${hidden?.id}/hide/`)).status).toBe(200);
    await memorize(learner, firstPage.pairs[2]?.id ?? "");

    const second = await previewOf(learner, groupId, "?page=2&page_size=5");
    expect(second).toMatchObject({ page: 2, page_size: 5, total: 13 });
    expect(second.pairs.map((pair) => pair.number)).toEqual([6, 7, 8, 9, 10]);
    // Hiding the first pair moved every other one up a place.
    const everyPair = (await previewOf(owner, groupId, "?page_size=14")).pairs;
    expect(second.pairs.map((pair) => pair.id)).toEqual(everyPair.slice(6, 11).map((pair) => pair.id));
    expect(await previewOf(learner, groupId, "?page=9&page_size=5")).toMatchObject({ page: 3, total: 13, pairs: [{ number: 11 }, { number: 12 }, { number: 13 }] });
    expect((await previewOf(learner, groupId, "?page_size=5")).pairs[1]).toMatchObject({ id: firstPage.pairs[2]?.id, current_box: 5, number: 2 });
    // Nobody else's view changes.
    expect((await previewOf(owner, groupId, "")).pairs.map((pair) => pair.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("should list only the doubtful pairs on request, each with its number in the film, and count them in the stats", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const pairs = (await previewOf(owner, groupId, "?page_size=14")).pairs;
    const doubtful = [pairs[3], pairs[8], pairs[12]].map((pair) => pair?.id ?? "");
    await testDatabase.database.updateTable("subtitle_pair").set({ confidence: 0.3 }).where("id", "in", doubtful).execute();

    expect((await owner.get(`/api/subtitle-groups/${groupId}/stats/`)).body.doubtful_count).toBe(3);
    const firstPage = await previewOf(owner, groupId, "?only_doubtful=1&page_size=2");
    expect(firstPage).toMatchObject({ page: 1, page_size: 2, total: 3 });
    expect(firstPage.pairs.map((pair) => [pair.id, pair.number, pair.confidence])).toEqual([
      [doubtful[0], 4, 0.3],
      [doubtful[1], 9, 0.3],
    ]);
    expect((await previewOf(owner, groupId, "?only_doubtful=true&page=2&page_size=2")).pairs.map((pair) => pair.number)).toEqual([13]);
    expect((await previewOf(owner, groupId, "?only_doubtful=0&page_size=2")).total).toBe(14);
  });

  it("should count the memorized cards a From–To window offers, as the pairs call would choose them", async () => {
    const learner = await signedIn("learner@example.ch");
    const groupId = await uploadGroup(learner);
    const pairs = (await previewOf(learner, groupId, "?page_size=14")).pairs;
    await memorize(learner, pairs[0]?.id ?? "");
    await memorize(learner, pairs[6]?.id ?? "");
    const available = async (query: string) => {
      const response = await learner.get(`/api/subtitle-groups/${groupId}/available-cards/${query}`);
      expect(response.status, response.text).toBe(200);
      return response.body.available as number;
    };
    expect(await available("?range=memorized")).toBe(2);
    expect(await available("?range=memorized&startIndex=2&endIndex=7")).toBe(1);
    expect(await available("?range=memorized&startIndex=2&endIndex=6")).toBe(0);
    expect(await available("?range=new&startIndex=1&endIndex=7")).toBe(5);
    expect(await available("?range=new&startIndex=1&endIndex=7&cardCount=3")).toBe(3);
    const session = await learner.get(`/api/subtitle-groups/${groupId}/pairs/?range=memorized&startIndex=2&endIndex=7`);
    expect(session.body.pairs).toHaveLength(1);
    expect(await learner.get(`/api/subtitle-groups/${groupId}/available-cards/?range=someday`)).toMatchObject({ status: 400, body: { error: "range must be new, in-progress, memorized, all or reviewing." } });
  });

  it("should answer another user's private group as if it did not exist, on each call", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner, "false");
    const stranger = await signedIn("stranger@example.ch");
    for (const path of ["stats/", "preview/", "available-cards/?range=memorized"]) {
      expect(await stranger.get(`/api/subtitle-groups/${groupId}/${path}`)).toMatchObject({ status: 404, body: { error: groupNotFoundMessage } });
      expect((await owner.get(`/api/subtitle-groups/${groupId}/${path}`)).status).toBe(200);
    }
  });
});
