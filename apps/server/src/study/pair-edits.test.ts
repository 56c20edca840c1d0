import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { lastPairMergeMessage } from "./pair-edits.ts";
import { ownerOnlyMessage } from "./study-routes.ts";
import { countStudyRows, createStudyTestApp } from "./testing/study-test-app.ts";
import { createStudyTestClient, type StudyTestClient } from "./testing/study-test-client.ts";

let testDatabase: TestDatabase;
let app: ReturnType<typeof createStudyTestApp>;
let now: Date;
const clock = () => now;

type Pair = { id: string; english: string; swedish: string; current_box: number; confidence: number };

async function signedIn(email: string): Promise<StudyTestClient> {
  const client = createStudyTestClient(app);
  await client.signUp(email);
  return client;
}

async function uploadGroup(owner: StudyTestClient, isPublic = "true"): Promise<string> {
  const response = await owner.upload({ isPublic });
  expect(response.status, response.text).toBe(201);
  return response.body.group.id as string;
}

/** The stats with every pair of the fixture's group on the preview's first page. */
async function statsOf(client: StudyTestClient, groupId: string) {
  const response = await client.get(`/api/subtitle-groups/${groupId}/stats/?page_size=50`);
  expect(response.status, response.text).toBe(200);
  return response.body as { total: number; pairs: Pair[]; hidden_pairs: { id: string }[] };
}

async function rate(client: StudyTestClient, pairId: string, rightAnswers: number) {
  for (let answer = 0; answer < rightAnswers; answer += 1) expect((await client.post(`/api/subtitle-pairs/${pairId}/rate/`, { is_correct: true })).status).toBe(200);
}

describe.each(testDatabaseEngines)("given a group whose pairs its owner fixes, on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-02T09:00:00.000Z");
    app = createStudyTestApp(testDatabase, { clock });
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should let the owner edit either side, vouching for the pair, and refuse an empty side or anyone else", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const [first] = (await statsOf(owner, groupId)).pairs;
    const edited = await owner.patch(`/api/subtitle-pairs/${first?.id}/`, { swedish: "  God  morgon,   Anna!  " });
    expect(edited.body).toEqual({ pair: { id: first?.id, english: "Good morning, Anna.", swedish: "God morgon, Anna!", confidence: 1 } });
    expect((await statsOf(owner, groupId)).pairs[0]).toMatchObject({ swedish: "God morgon, Anna!", confidence: 1 });
    const cleaned = await owner.patch(`/api/subtitle-pairs/${first?.id}/`, { english: "Good\u0007 morning,\u202E Anna.\u200b\r\nX-Injected: 1" });
    expect(cleaned.body.pair.english).toBe("Good morning, Anna. X-Injected: 1");
    expect((await owner.patch(`/api/subtitle-pairs/${first?.id}/`, { english: "Good morning, Anna." })).status).toBe(200);
    expect(await owner.patch(`/api/subtitle-pairs/${first?.id}/`, { english: "\u202E\u200b\u0007" })).toMatchObject({ status: 400, body: { error: "The English side cannot be empty." } });
    expect(await owner.patch(`/api/subtitle-pairs/${first?.id}/`, { english: "   " })).toMatchObject({ status: 400, body: { error: "The English side cannot be empty." } });
    expect(await owner.patch(`/api/subtitle-pairs/${first?.id}/`, {})).toMatchObject({ status: 400 });
    expect(await owner.patch(`/api/subtitle-pairs/${first?.id}/`, { english: "x".repeat(1_001) })).toMatchObject({ status: 400, body: { error: "Each side can be at most 1000 characters." } });
    const other = await signedIn("other@example.ch");
    expect(await other.patch(`/api/subtitle-pairs/${first?.id}/`, { english: "Mine now." })).toMatchObject({ status: 403, body: { error: ownerOnlyMessage } });
    expect((await statsOf(owner, groupId)).pairs[0]?.english).toBe("Good morning, Anna.");
  });

  it("should merge a pair with the next, keep each learner's lower box, and refuse to merge the last pair", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const [first, second] = (await statsOf(owner, groupId)).pairs as [Pair, Pair];
    const learner = await signedIn("learner@example.ch");
    await rate(learner, first.id, 3);
    await rate(learner, second.id, 1);
    const onlyFirst = await signedIn("first-only@example.ch");
    await rate(onlyFirst, first.id, 2);

    const merged = await owner.post(`/api/subtitle-pairs/${first.id}/merge-next/`);
    expect(merged.body.pair).toMatchObject({ id: first.id, english: `${first.english} ${second.english}`, swedish: `${first.swedish} ${second.swedish}` });
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 1, pairs: 13 });
    expect((await statsOf(learner, groupId)).pairs[0]).toMatchObject({ id: first.id, current_box: 2 });
    // Never studied the second half: the merged pair is new for this learner.
    expect((await statsOf(onlyFirst, groupId)).pairs[0]?.current_box).toBe(1);
    expect((await owner.get("/api/subtitle-groups/")).body.groups[0].pair_count).toBe(13);

    const last = (await statsOf(owner, groupId)).pairs.at(-1) as Pair;
    expect(await owner.post(`/api/subtitle-pairs/${last.id}/merge-next/`)).toMatchObject({ status: 400, body: { error: lastPairMergeMessage } });
  });

  it("should split a pair after whole sentences, copy the progress to both parts, and refuse a split inside a sentence", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const [first, second, third] = (await statsOf(owner, groupId)).pairs as [Pair, Pair, Pair];
    await owner.post(`/api/subtitle-pairs/${first.id}/merge-next/`);
    await rate(owner, first.id, 2);
    expect(await owner.post(`/api/subtitle-pairs/${first.id}/split/`, { english_sentences: 0, swedish_sentences: 1 })).toMatchObject({ status: 400 });
    expect(await owner.post(`/api/subtitle-pairs/${third.id}/split/`, { english_sentences: 1, swedish_sentences: 1 })).toMatchObject({
      status: 400,
      body: { error: "The English side is one sentence: there is no sentence boundary to split it at." },
    });

    const split = await owner.post(`/api/subtitle-pairs/${first.id}/split/`, { english_sentences: 1, swedish_sentences: 1 });
    expect(split.status, split.text).toBe(200);
    expect(split.body.pairs.map((pair: Pair) => [pair.english, pair.swedish])).toEqual([
      [first.english, first.swedish],
      [second.english, second.swedish],
    ]);
    const pairs = (await statsOf(owner, groupId)).pairs;
    expect(pairs.slice(0, 3).map((pair) => pair.english)).toEqual([first.english, second.english, third.english]);
    expect(pairs.slice(0, 2).map((pair) => pair.current_box)).toEqual([3, 3]);
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 1, pairs: 14 });
  });

  it("should keep every pair when the owner merges and splits neighbours at once", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const pairs = (await statsOf(owner, groupId)).pairs;
    await Promise.all([owner.post(`/api/subtitle-pairs/${pairs[0]?.id}/merge-next/`), owner.post(`/api/subtitle-pairs/${pairs[1]?.id}/merge-next/`), owner.post(`/api/subtitle-pairs/${pairs[4]?.id}/merge-next/`)]);
    const after = (await statsOf(owner, groupId)).pairs;
    // Whatever order the merges ran in, the text of all 14 pairs is still there, in the film's order.
    expect(after.map((pair) => pair.english).join(" ")).toBe(pairs.map((pair) => pair.english).join(" "));
    expect((await owner.get("/api/subtitle-groups/")).body.groups[0].pair_count).toBe(after.length);
  });

  it("should apply a delete of a pair and a merge of its neighbour into it in one order or the other, never half of each", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const pairs = (await statsOf(owner, groupId)).pairs;
    const answers = await Promise.all([0, 4, 8].flatMap((index) => [owner.post(`/api/subtitle-pairs/${pairs[index]?.id}/merge-next/`), owner.delete(`/api/subtitle-pairs/${pairs[index + 1]?.id}/`)]));

    const after = (await statsOf(owner, groupId)).pairs;
    expect(answers.filter((_, index) => index % 2 === 0).map((answer) => answer.status)).toEqual([200, 200, 200]);
    // Deleted first: its text is gone and the merge took the pair after it. Merged first: the pair was no longer there
    // to delete (404), and its text lives on in the merged pair.
    const deleted = new Set([1, 5, 9].filter((index, order) => answers[order * 2 + 1]?.status === 204).map((index) => pairs[index]?.id));
    expect(answers.filter((_, index) => index % 2 === 1).map((answer) => answer.status).filter((status) => status !== 204 && status !== 404)).toEqual([]);
    expect(after.map((pair) => pair.english).join(" ")).toBe(pairs.filter((pair) => !deleted.has(pair.id)).map((pair) => pair.english).join(" "));
    expect(after).toHaveLength(pairs.length - 3 - deleted.size);
    expect((await owner.get("/api/subtitle-groups/")).body.groups[0].pair_count).toBe(after.length);
  });

  it("should answer 404, never 500, to hides of a pair its owner merges away or deletes at the same moment", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const pairs = (await statsOf(owner, groupId)).pairs;
    const learners = [await signedIn("ann@example.ch"), await signedIn("bo@example.ch"), createStudyTestClient(app), createStudyTestClient(app)];
    const hides: Promise<{ status: number }>[] = [];
    const edits: Promise<{ status: number }>[] = [];
    for (const index of [0, 3, 6, 9]) {
      const absorbed = pairs[index + 1]?.id;
      edits.push(owner.post(`/api/subtitle-pairs/${pairs[index]?.id}/merge-next/`), owner.delete(`/api/subtitle-pairs/${pairs[index + 2]?.id}/`));
      for (const learner of learners) hides.push(learner.post(`/api/subtitle-pairs/${absorbed}/hide/`), learner.post(`/api/subtitle-pairs/${pairs[index + 2]?.id}/hide/`));
    }
    const [hideAnswers, editAnswers] = await Promise.all([Promise.all(hides), Promise.all(edits)]);

    expect(editAnswers.map((answer) => answer.status)).toEqual([200, 204, 200, 204, 200, 204, 200, 204]);
    expect(hideAnswers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 404)).toEqual([]);
    // Every pair the merges absorbed or the owner deleted is gone, and with it every learner's hiding of it.
    for (const learner of learners) expect((await statsOf(learner, groupId)).hidden_pairs).toEqual([]);
    expect((await statsOf(owner, groupId)).total).toBe(pairs.length - 8);
  });

  it("should answer every edit, rating, hide, Mark as Studied and Reset sent while the owner deletes the group with 2xx, 400 or 404, never 500", async () => {
    const owner = await signedIn("owner@example.ch");
    const learners = [await signedIn("ann@example.ch"), createStudyTestClient(app)];
    // Five rounds: on PostgreSQL one round without the group's lock met a deadlock or a foreign-key error one time in two.
    for (let round = 0; round < 5; round += 1) {
      const groupId = await uploadGroup(owner);
      const pairs = (await statsOf(owner, groupId)).pairs;
      for (const learner of learners) await rate(learner, pairs[0]?.id ?? "", 1);
      const calls: { call: string; answer: Promise<{ status: number; text: string }> }[] = [];
      const send = (call: string, answer: Promise<{ status: number; text: string }>) => calls.push({ call, answer });
      for (const [index, pair] of pairs.entries()) {
        if (index % 4 === 0) send(`split ${index}`, owner.post(`/api/subtitle-pairs/${pair.id}/split/`, { english_sentences: 1, swedish_sentences: 1 }));
        if (index % 4 === 1) send(`merge ${index}`, owner.post(`/api/subtitle-pairs/${pair.id}/merge-next/`));
        if (index % 4 === 2) send(`edit ${index}`, owner.patch(`/api/subtitle-pairs/${pair.id}/`, { english: `Edited ${index}.` }));
        if (index % 4 === 3) send(`delete ${index}`, owner.delete(`/api/subtitle-pairs/${pair.id}/`));
        for (const [number, learner] of learners.entries()) {
          send(`rate ${index} by ${number}`, learner.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: index % 2 === 0 }));
          send(`hide ${index} by ${number}`, learner.post(`/api/subtitle-pairs/${pair.id}/hide/`));
        }
        if (index === 3) send("delete the group", owner.delete(`/api/subtitle-groups/${groupId}/`));
      }
      for (const [number, learner] of learners.entries()) {
        send(`mark studied by ${number}`, learner.post(`/api/subtitle-groups/${groupId}/mark-studied/`, { pairIds: pairs.slice(0, 5).map((pair) => pair.id) }));
        send(`reset by ${number}`, learner.post(`/api/subtitle-groups/${groupId}/reset-stats/`));
      }
      const answers = await Promise.all(calls.map(async ({ call, answer }) => ({ call, ...(await answer) })));

      // Each call ran before the deletion or found nothing (a split of a one-sentence side is a 400 either way).
      expect(answers.filter((answer) => ![200, 204, 400, 404].includes(answer.status)).map((answer) => `${answer.call}: ${answer.status}`)).toEqual([]);
      expect((await owner.get(`/api/subtitle-groups/${groupId}/stats/`)).status).toBe(404);
      expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
    }
  });

  // A merge reads both pairs' records and writes their sum; a rating of the first pair between that read and the write
  // was lost on PostgreSQL (its review counted nowhere). The merge now locks the records it reads.
  it("should keep every rating of a pair sent while its owner merges it with the next one", async () => {
    const owner = await signedIn("owner@example.ch");
    const learner = await signedIn("ann@example.ch");
    for (let round = 0; round < 6; round += 1) {
      now = new Date(now.getTime() + 61_000);
      const groupId = await uploadGroup(owner);
      const pairs = (await statsOf(owner, groupId)).pairs;
      const merged = pairs.filter((_, index) => index % 2 === 0 && index + 1 < pairs.length);
      for (const pair of pairs) await rate(learner, pair.id, 1);
      const answers = await Promise.all(
        merged.flatMap((pair) => [
          owner.post(`/api/subtitle-pairs/${pair.id}/merge-next/`),
          learner.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: true }),
          learner.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: false }),
        ]),
      );
      expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
      const records = await testDatabase.database
        .selectFrom("study_progress")
        .select(["pair_id", "review_count"])
        .where("pair_id", "in", merged.map((pair) => pair.id))
        .execute();
      // One review of each of the two pairs before, and the two sent with the merge.
      expect(records.map((record) => Number(record.review_count))).toEqual(merged.map(() => 4));
    }
  });

  // On PostgreSQL each deletion read the group before the first one committed, so all ten answered 204; a mark-studied
  // that met the deletion answered 400 ("not in this group") for a group that no longer was.
  it("should answer ten simultaneous deletions of a group with one 204 and nine 404, and mark-studied meeting it with 404", async () => {
    const owner = await signedIn("owner@example.ch");
    const learner = await signedIn("ann@example.ch");
    for (let round = 0; round < 5; round += 1) {
      const groupId = await uploadGroup(owner);
      const pairIds = (await statsOf(owner, groupId)).pairs.map((pair) => pair.id);
      const calls = [
        ...Array.from({ length: 10 }, () => ({ call: "delete", answer: owner.delete(`/api/subtitle-groups/${groupId}/`) })),
        ...Array.from({ length: 5 }, () => ({ call: "mark studied", answer: learner.post(`/api/subtitle-groups/${groupId}/mark-studied/`, { pairIds }) })),
      ];
      const answers = await Promise.all(calls.map(async ({ call, answer }) => ({ call, status: (await answer).status })));
      const deletions = answers.filter((answer) => answer.call === "delete").map((answer) => answer.status);
      expect(deletions.filter((status) => status === 204)).toHaveLength(1);
      expect(deletions.filter((status) => status === 404)).toHaveLength(9);
      expect(answers.filter((answer) => answer.call === "mark studied" && ![200, 404].includes(answer.status))).toEqual([]);
      expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
    }
  });

  it("should answer ratings of pairs deleted at that moment with 404, never 500", async () => {
    const learners = [createStudyTestClient(app), createStudyTestClient(app), await signedIn("ann@example.ch")];
    // Forty films: on PostgreSQL a rating whose pair went between its statement's read and its write failed the foreign
    // key about once in ten films.
    for (let round = 0; round < 40; round += 1) {
      const owner = await signedIn(`owner-${round}@example.ch`);
      const groupId = await uploadGroup(owner);
      const pairs = (await statsOf(owner, groupId)).pairs;
      const calls: { call: string; answer: Promise<{ status: number; text: string }> }[] = [];
      for (const [index, pair] of pairs.entries()) {
        for (const learner of learners) calls.push({ call: `rate ${index}`, answer: learner.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: true }) });
        if (index % 2 === 0) calls.push({ call: `delete ${index}`, answer: owner.delete(`/api/subtitle-pairs/${pair.id}/`) });
        if (index === 7) calls.push({ call: "delete the group", answer: owner.delete(`/api/subtitle-groups/${groupId}/`) });
      }
      const answers = await Promise.all(calls.map(async ({ call, answer }) => ({ call, ...(await answer) })));
      expect(answers.filter((answer) => ![200, 204, 404].includes(answer.status)).map((answer) => `${answer.call}: ${answer.status}`)).toEqual([]);
    }
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
  });

  it("should let a learner of someone else's public group hide a pair for themselves only, and show it again", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner);
    const [first] = (await statsOf(owner, groupId)).pairs as [Pair];
    const visitor = createStudyTestClient(app);
    expect((await visitor.post(`/api/subtitle-pairs/${first.id}/hide/`)).body).toEqual({ hidden: true });
    const hiddenStats = await statsOf(visitor, groupId);
    expect(hiddenStats.total).toBe(13);
    expect(hiddenStats.hidden_pairs).toEqual([{ id: first.id, english: first.english, swedish: first.swedish }]);
    const session = await visitor.get(`/api/subtitle-groups/${groupId}/pairs/?mode=study&range=all&cardCount=20`);
    expect(session.body.pairs.some((pair: Pair) => pair.id === first.id)).toBe(false);
    expect((await statsOf(owner, groupId)).total).toBe(14);
    expect(await visitor.delete(`/api/subtitle-pairs/${first.id}/hide/`)).toMatchObject({ status: 200, body: { hidden: false } });
    expect((await statsOf(visitor, groupId)).total).toBe(14);
  });

  it("should answer 404 to edits of a private group's pair by anyone but its owner", async () => {
    const owner = await signedIn("owner@example.ch");
    const groupId = await uploadGroup(owner, "false");
    const [first] = (await statsOf(owner, groupId)).pairs as [Pair];
    const other = await signedIn("other@example.ch");
    for (const request of [other.patch(`/api/subtitle-pairs/${first.id}/`, { english: "x" }), other.post(`/api/subtitle-pairs/${first.id}/merge-next/`), other.post(`/api/subtitle-pairs/${first.id}/hide/`)]) {
      expect((await request).status).toBe(404);
    }
  });
});
