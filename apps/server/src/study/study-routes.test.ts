import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { createIdentityTestApp } from "../identity/testing/test-app.ts";
import { anonymousLimitMessage, groupNotFoundMessage, ownerOnlyMessage, pairNotFoundMessage, tooManyNewLearnersMessage } from "./study-routes.ts";
import { createStudyTestClient, type StudyTestClient } from "./testing/study-test-client.ts";
import { countStudyRows, createStudyTestApp } from "./testing/study-test-app.ts";

let testDatabase: TestDatabase;
let app: ReturnType<typeof createStudyTestApp>;
let now: Date;
const clock = () => now;

async function signedIn(email: string): Promise<StudyTestClient & { userId: string }> {
  const client = createStudyTestClient(app);
  const userId = await client.signUp(email);
  return Object.assign(client, { userId });
}

async function uploadGroup(owner: StudyTestClient, options: { isPublic?: string; name?: string } = {}) {
  const response = await owner.upload(options);
  expect(response.status, response.text).toBe(201);
  return response.body.group as { id: string; name: string; is_public: boolean };
}

type FilmLine = { english: string; swedish: string } | null;

async function pairsOf(
  client: StudyTestClient,
  groupId: string,
  query = "",
): Promise<{ id: string; english: string; swedish: string; current_box: number; confidence: number; context: { before: FilmLine; after: FilmLine } }[]> {
  const response = await client.get(`/api/subtitle-groups/${groupId}/pairs/${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body.pairs;
}

/** An app that lets one address start 3 anonymous learners in 10 minutes, and a group in it. */
async function groupWithThreeNewLearnersIn10Minutes() {
  const limitedApp = createIdentityTestApp(testDatabase, { environment: { ACCOUNT_EMAIL_VERIFICATION: "none", STUDY_NEW_LEARNER_RATE_LIMIT: "3/10m" }, clock });
  const owner = createStudyTestClient(limitedApp);
  await owner.signUp("owner@example.ch");
  const groupId = (await uploadGroup(owner)).id;
  return { limitedApp, owner, groupId, pairs: await pairsOf(owner, groupId) };
}

async function memorize(client: StudyTestClient, pairId: string) {
  for (let answer = 0; answer < 4; answer += 1) {
    const response = await client.post(`/api/subtitle-pairs/${pairId}/rate/`, { is_correct: true });
    expect(response.status, response.text).toBe(200);
  }
}

describe.each(testDatabaseEngines)("given the study API on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-02T09:00:00.000Z");
    app = createStudyTestApp(testDatabase, { clock });
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  describe("upload", () => {
    it("should turn the English and Swedish fixture files into a public group of 14 plain-text pairs", async () => {
      const owner = await signedIn("owner@example.ch");
      const response = await owner.upload();
      expect(response.status, response.text).toBe(201);
      expect(response.body).toEqual({
        group: { id: expect.any(String), name: "Morning Train", created_at: "2026-03-02T09:00:00.000Z", is_public: true, owner_id: owner.userId, is_owner: true, pair_count: 14 },
        report: expect.objectContaining({ pairCount: 14, englishCoverage: 1, swedishCoverage: 1, offsetMilliseconds: -3000 }),
        pair_count: 14,
      });
      expect(response.body.report.warning).toBeUndefined();
      const pairs = await pairsOf(owner, response.body.group.id);
      expect(pairs[0]).toEqual({
        id: expect.any(String),
        english: "Good morning, Anna.",
        swedish: "God morgon, Anna.",
        current_box: 1,
        confidence: expect.any(Number),
        context: { before: null, after: { english: pairs[1]?.english, swedish: pairs[1]?.swedish } },
      });
      // The alignment's confidence is stored with each pair: this fixture is one film, well timed.
      expect(pairs.every((pair) => pair.confidence > 0.5 && pair.confidence <= 1)).toBe(true);
      const storedConfidences = await testDatabase.database.selectFrom("subtitle_pair").select("confidence").execute();
      expect(storedConfidences.map((row) => Number(row.confidence)).sort()).toEqual(pairs.map((pair) => pair.confidence).sort());
      // The neighbours are the film's lines, whatever the session selected: the last card's line before is the 13th.
      expect(pairs.at(-1)?.context).toEqual({ before: { english: pairs[12]?.english, swedish: pairs[12]?.swedish }, after: null });
      expect(pairs.at(-1)).toMatchObject({ english: "Drive carefully & take care <always>.", swedish: "Kör försiktigt & ta hand om dig <alltid>." });
      const stored = await testDatabase.database.selectFrom("subtitle_pair").select(["english", "swedish"]).execute();
      expect(stored.some((pair) => /<\/?(p|tt|span)\b|<\?xml/.test(`${pair.english}${pair.swedish}`))).toBe(false);
    });

    it("should make the group private when is_public is false and use a given name", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner, { isPublic: "false", name: "  Tåget  " });
      expect(group).toMatchObject({ is_public: false, name: "Tåget" });
    });

    it("should read an upload whose CSRF token is a field of the form, which the CSRF check reads first", async () => {
      const owner = await signedIn("owner@example.ch");
      const response = await owner.upload({ csrfInForm: true, name: "Formulär" });
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({ group: { name: "Formulär", pair_count: 14 } });
    });

    it("should ask anonymous visitors to sign in", async () => {
      const visitor = createStudyTestClient(app);
      const response = await visitor.upload();
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: "Please sign in to upload subtitles." });
    });

    it("should answer every upload error of the spec with its sentence and store nothing", async () => {
      const owner = await signedIn("owner@example.ch");
      const cases: [Parameters<StudyTestClient["upload"]>[0], string][] = [
        [{ swedish: null }, "Please upload both files"],
        [{ english: null }, "Please upload both files"],
        [{ english: null, swedish: null }, "Please upload both files"],
        [{ english: { name: "film.srt", bytes: "1\n00:00:01,000 --> 00:00:02,000\nHi" } }, "Please upload XML files only"],
        [{ swedish: { name: "film.sv.ttml", bytes: "<tt/>" } }, "Please upload XML files only"],
        [{ swedish: { name: "film.sv.xml", bytes: "<tt><body>" } }, "The Swedish file: This file is not valid XML. Please upload the subtitle file exactly as you downloaded it."],
        [{ english: { name: "film.en.XML", bytes: "<html><body>Hi</body></html>" } }, "The English file: This XML file does not contain subtitles in a format we know. Please upload a TTML, DFXP, IMSC, EBU-TT, OpenSubtitles XML or YouTube timedtext file."],
        [{ isPublic: "maybe" }, "is_public must be true or false."],
        [{ name: "x".repeat(121) }, "The name can be at most 120 characters."],
      ];
      for (const [files, error] of cases) {
        const response = await owner.upload(files);
        expect(response.status, error).toBe(400);
        expect(response.body).toEqual({ error });
      }
      expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
    });
  });

  describe("group list and owner actions", () => {
    it("should list own groups first, then other users' public groups, and public groups only to anonymous visitors", async () => {
      const anna = await signedIn("anna@example.ch");
      const annaPublic = await uploadGroup(anna, { name: "Anna public" });
      now = new Date("2026-03-02T10:00:00.000Z");
      const annaPrivate = await uploadGroup(anna, { name: "Anna private", isPublic: "false" });
      const bert = await signedIn("bert@example.ch");
      const bertPrivate = await uploadGroup(bert, { name: "Bert private", isPublic: "false" });

      const seenByBert = await bert.get("/api/subtitle-groups/");
      expect(seenByBert.body.groups.map((group: { id: string; is_owner: boolean }) => [group.id, group.is_owner])).toEqual([
        [bertPrivate.id, true],
        [annaPublic.id, false],
      ]);
      const seenByAnna = await anna.get("/api/subtitle-groups/");
      expect(seenByAnna.body.groups.map((group: { id: string }) => group.id)).toEqual([annaPrivate.id, annaPublic.id]);
      const visitor = createStudyTestClient(app);
      const seenByVisitor = await visitor.get("/api/subtitle-groups/");
      expect(seenByVisitor.body).toEqual({
        groups: [{ id: annaPublic.id, name: "Anna public", created_at: "2026-03-02T09:00:00.000Z", is_public: true, owner_id: anna.userId, is_owner: false, pair_count: 14 }],
      });
    });

    it("should rename, ignore an empty or unchanged name, toggle visibility and delete for the owner", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const renamed = await owner.post(`/api/subtitle-groups/${group.id}/rename/`, { name: "  Season 1 <b>one</b> " });
      expect(renamed.body.group).toMatchObject({ name: "Season 1 <b>one</b>" });
      for (const name of ["", "   ", "Season 1 <b>one</b>"]) {
        const ignored = await owner.post(`/api/subtitle-groups/${group.id}/rename/`, { name });
        expect(ignored.status).toBe(200);
        expect(ignored.body.group.name).toBe("Season 1 <b>one</b>");
      }
      expect((await owner.post(`/api/subtitle-groups/${group.id}/rename/`, { name: "y".repeat(121) })).body).toEqual({ error: "The name can be at most 120 characters." });
      expect((await owner.post(`/api/subtitle-groups/${group.id}/toggle-public/`)).body.group.is_public).toBe(false);
      expect((await owner.post(`/api/subtitle-groups/${group.id}/toggle-public/`)).body.group.is_public).toBe(true);
      const pairs = await pairsOf(owner, group.id);
      expect((await owner.delete(`/api/subtitle-pairs/${pairs[0]?.id}/`)).status).toBe(204);
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).body.total).toBe(13);
      expect((await owner.get("/api/subtitle-groups/")).body.groups[0].pair_count).toBe(13);
      expect((await owner.delete(`/api/subtitle-groups/${group.id}/`)).status).toBe(204);
      expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).status).toBe(404);
    });

    it("should store half of a surrogate pair in a name as U+FFFD and answer the name as stored", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const renamed = await owner.post(`/api/subtitle-groups/${group.id}/rename/`, { name: "A\ud800B \ud83c\udf05" });
      expect(renamed.body.group.name).toBe("A\uFFFDB \ud83c\udf05");
      expect((await owner.get("/api/subtitle-groups/")).body.groups[0].name).toBe("A\uFFFDB \ud83c\udf05");
    });

    it("should keep an emoji family whole in a name while dropping a joiner between letters", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const renamed = await owner.post(`/api/subtitle-groups/${group.id}/rename/`, { name: "🎨👨\u200d👩\u200d👧 pay\u200dpal" });
      expect(renamed.body.group.name).toBe("🎨👨\u200d👩\u200d👧 paypal");
    });
  });

  describe("access", () => {
    it("should answer 404 for another user's private group and its pairs, and 403 for owner actions on a public group", async () => {
      const owner = await signedIn("owner@example.ch");
      const privateGroup = await uploadGroup(owner, { isPublic: "false" });
      const publicGroup = await uploadGroup(owner);
      const [privatePair] = await pairsOf(owner, privateGroup.id);
      const [publicPair] = await pairsOf(owner, publicGroup.id);
      const other = await signedIn("other@example.ch");
      const visitor = createStudyTestClient(app);

      for (const client of [other, visitor]) {
        const groupNotFound = { error: groupNotFoundMessage };
        const id = privateGroup.id;
        for (const path of [`/api/subtitle-groups/${id}/stats/`, `/api/subtitle-groups/${id}/pairs/`, `/api/subtitle-groups/${id}/export.csv`, `/api/subtitle-groups/${id}/export.tsv`]) {
          expect(await client.get(path), path).toMatchObject({ status: 404, body: groupNotFound });
        }
        expect(await client.post(`/api/subtitle-groups/${id}/rename/`, { name: "Mine" })).toMatchObject({ status: 404, body: groupNotFound });
        expect(await client.post(`/api/subtitle-groups/${id}/toggle-public/`)).toMatchObject({ status: 404, body: groupNotFound });
        expect(await client.post(`/api/subtitle-groups/${id}/mark-studied/`, { pairIds: [] })).toMatchObject({ status: 404, body: groupNotFound });
        expect(await client.post(`/api/subtitle-groups/${id}/reset-stats/`)).toMatchObject({ status: 404, body: groupNotFound });
        expect(await client.delete(`/api/subtitle-groups/${id}/`)).toMatchObject({ status: 404, body: groupNotFound });
        expect(await client.post(`/api/subtitle-pairs/${privatePair?.id}/rate/`, { is_correct: true })).toMatchObject({ status: 404, body: { error: pairNotFoundMessage } });
        expect(await client.delete(`/api/subtitle-pairs/${privatePair?.id}/`)).toMatchObject({ status: 404, body: { error: pairNotFoundMessage } });

        const ownerOnly = { status: 403, body: { error: ownerOnlyMessage } };
        expect(await client.post(`/api/subtitle-groups/${publicGroup.id}/rename/`, { name: "Mine" })).toMatchObject(ownerOnly);
        expect(await client.post(`/api/subtitle-groups/${publicGroup.id}/toggle-public/`)).toMatchObject(ownerOnly);
        expect(await client.delete(`/api/subtitle-groups/${publicGroup.id}/`)).toMatchObject(ownerOnly);
        expect(await client.delete(`/api/subtitle-pairs/${publicPair?.id}/`)).toMatchObject(ownerOnly);
        expect((await client.post(`/api/subtitle-pairs/${publicPair?.id}/rate/`, { is_correct: true })).status).toBe(200);
        // Exporting someone else's shared deck takes a plan that includes it (deck-entitlements.test.ts).
        expect((await client.get(`/api/subtitle-groups/${publicGroup.id}/export.csv`)).status).toBe(client === visitor ? 401 : 403);
      }
      expect((await owner.get(`/api/subtitle-groups/not-a-group/stats/`)).body).toEqual({ error: groupNotFoundMessage });
      expect((await owner.post(`/api/subtitle-pairs/not-a-pair/rate/`, { is_correct: true })).body).toEqual({ error: pairNotFoundMessage });
      expect((await owner.get(`/api/subtitle-groups/${privateGroup.id}/stats/`)).body.name).toBe(privateGroup.name);
      expect(await countStudyRows(testDatabase)).toEqual({ groups: 2, pairs: 28 });
    });

    it("should refuse unsafe requests without the CSRF token with 403 and an error sentence", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const [pair] = await pairsOf(owner, group.id);
      for (const response of [
        await owner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: true }, { withoutCsrf: true }),
        await owner.post(`/api/subtitle-groups/${group.id}/rename/`, { name: "Hijacked" }, { withoutCsrf: true }),
        await owner.delete(`/api/subtitle-groups/${group.id}/`, { withoutCsrf: true }),
        await owner.post("/api/merge-progress/", {}, { withoutCsrf: true }),
      ]) {
        expect(response.status).toBe(403);
        expect(response.body.error).toMatch(/^CSRF verification failed/);
      }
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toMatchObject({ name: group.name, total_reviews: 0 });
    });
  });

  describe("learners, ratings and boxes", () => {
    it("should give an anonymous visitor an HttpOnly SameSite=Lax learner_id cookie once and keep their progress under it", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const visitor = createStudyTestClient(app);
      const first = await visitor.get(`/api/subtitle-groups/${group.id}/stats/`);
      const setCookie = first.headers.getSetCookie().find((cookie) => cookie.startsWith("learner_id="));
      expect(setCookie).toMatch(/^learner_id=[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{22}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
      const second = await visitor.get(`/api/subtitle-groups/${group.id}/pairs/`);
      expect(second.headers.getSetCookie().some((cookie) => cookie.startsWith("learner_id="))).toBe(false);
      const pairId = second.body.pairs[0].id;
      expect((await visitor.post(`/api/subtitle-pairs/${pairId}/rate/`, { is_correct: true })).body).toEqual({ pair: { id: pairId, current_box: 2 }, memorized: 0, anonymous_limit_reached: false, learning_state: { before: "new", after: "in-progress" } });
      expect((await visitor.get(`/api/subtitle-groups/${group.id}/pairs/`)).body.pairs[0].current_box).toBe(2);
      expect((await owner.get(`/api/subtitle-groups/${group.id}/pairs/`)).body.pairs[0].current_box).toBe(1);
      expect((await owner.get(`/api/subtitle-groups/`)).headers.getSetCookie().some((cookie) => cookie.startsWith("learner_id="))).toBe(false);
    });

    it("should answer every one of many ratings of the same card sent at once", async () => {
      const learner = await signedIn("eager@example.ch");
      const group = await uploadGroup(learner);
      const [pair] = await pairsOf(learner, group.id);
      const answers = await Promise.all(Array.from({ length: 12 }, () => learner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: true })));
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, () => 200));
      expect(await testDatabase.database.selectFrom("study_progress").select("box").where("pair_id", "=", pair?.id ?? "").execute()).toHaveLength(1);
    });

    it("should raise the box on right answers up to 5, send it to 1 on a wrong one, and count it in the stats", async () => {
      const learner = await signedIn("learner@example.ch");
      const group = await uploadGroup(learner);
      const [pair, other] = await pairsOf(learner, group.id);
      const boxes: number[] = [];
      const learningStates: string[] = [];
      for (const isCorrect of [true, true, true, true, true, false, true]) {
        const response = await learner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: isCorrect });
        boxes.push(response.body.pair.current_box);
        learningStates.push(`${response.body.learning_state.before}→${response.body.learning_state.after}`);
      }
      expect(boxes).toEqual([2, 3, 4, 5, 5, 1, 2]);
      expect(learningStates).toEqual(["new→in-progress", "in-progress→in-progress", "in-progress→in-progress", "in-progress→memorized", "memorized→memorized", "memorized→in-progress", "in-progress→in-progress"]);
      await learner.post(`/api/subtitle-pairs/${other?.id}/rate/`, { is_correct: false });
      expect((await learner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: "yes" })).body).toEqual({ error: "is_correct must be true or false." });
      // Validated at the edge: a body that is not JSON, or not an object, changes nothing and says what to send.
      const asForm = new FormData();
      asForm.set("is_correct", "true");
      const formAnswer = await learner.postForm(`/api/subtitle-pairs/${pair?.id}/rate/`, asForm);
      expect(formAnswer.status).toBe(400);
      expect(formAnswer.body).toEqual({ error: 'Please send a JSON body such as { "is_correct": true }, with the header Content-Type: application/json.' });
      expect((await learner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, [true])).body).toEqual({ error: 'Please send a JSON body such as { "is_correct": true }.' });
      const stats = await learner.get(`/api/subtitle-groups/${group.id}/stats/`);
      expect(stats.body).toMatchObject({
        id: group.id,
        name: group.name,
        is_owner: true,
        total: 14,
        not_started: 12,
        in_progress: 2,
        memorized: 0,
        box_distribution: { box1: 1, box2: 1, box3: 0, box4: 0 },
        total_reviews: 8,
        accuracy: 75,
        reviewing: 2,
        learned: 0,
        anonymous_limit_reached: false,
      });
      // The spec's pairs are the preview's first page (decision 0039): 10 of the 14, each with its number in the film.
      expect(stats.body.pairs).toHaveLength(10);
      expect(stats.body.pairs_page).toEqual({ page: 1, page_size: 10, total: 14 });
      expect(stats.body.pairs[0]).toEqual({ id: pair?.id, english: "Good morning, Anna.", swedish: "God morgon, Anna.", current_box: 2, confidence: expect.any(Number), number: 1 });
    });

    it("should select session cards by mode, range, count and window, treating the string undefined as absent", async () => {
      const learner = await signedIn("learner@example.ch");
      const group = await uploadGroup(learner);
      const all = await pairsOf(learner, group.id);
      await memorize(learner, all[2]?.id ?? "");
      await learner.post(`/api/subtitle-groups/${group.id}/mark-studied/`, { pairIds: [all[0]?.id, all[1]?.id] });
      expect(await pairsOf(learner, group.id, "?mode=study&range=undefined&cardCount=undefined&startIndex=undefined&endIndex=undefined")).toHaveLength(14);
      expect((await pairsOf(learner, group.id, "?range=new&cardCount=5")).map((pair) => pair.id)).toEqual(all.slice(3, 8).map((pair) => pair.id));
      for (const range of ["in-progress", "in_progress", "inProgress"]) {
        expect((await pairsOf(learner, group.id, `?range=${range}`)).map((pair) => pair.id)).toEqual([all[0]?.id, all[1]?.id]);
      }
      expect((await pairsOf(learner, group.id, "?range=memorized")).map((pair) => pair.current_box)).toEqual([5]);
      expect(await pairsOf(learner, group.id, "?range=reviewing")).toHaveLength(3);
      expect((await pairsOf(learner, group.id, "?startIndex=4&endIndex=6")).map((pair) => pair.id)).toEqual(all.slice(3, 6).map((pair) => pair.id));
      const test = await pairsOf(learner, group.id, "?mode=test&range=all&cardCount=20");
      expect(test.at(-1)?.current_box).toBe(5);
      for (const [query, error] of [
        ["?mode=exam", "mode must be study or test."],
        ["?range=everything", "range must be new, in-progress, memorized, all or reviewing."],
        ["?cardCount=0", "cardCount must be a whole number of 1 or more."],
        ["?cardCount=2.5", "cardCount must be a whole number of 1 or more."],
        ["?startIndex=-1", "startIndex must be a whole number of 1 or more."],
        ["?endIndex=NaN", "endIndex must be a whole number of 1 or more."],
      ] as const) {
        expect(await learner.get(`/api/subtitle-groups/${group.id}/pairs/${query}`)).toMatchObject({ status: 400, body: { error } });
      }
    });

    it("should mark cards as studied, refuse ids of another group, and reset this learner's progress only", async () => {
      const learner = await signedIn("learner@example.ch");
      const group = await uploadGroup(learner);
      const otherGroup = await uploadGroup(learner);
      const pairs = await pairsOf(learner, group.id);
      const [foreign] = await pairsOf(learner, otherGroup.id);
      expect((await learner.post(`/api/subtitle-groups/${group.id}/mark-studied/`, { pairIds: [pairs[0]?.id, pairs[1]?.id, pairs[1]?.id] })).body).toEqual({ marked: 2 });
      expect(await learner.post(`/api/subtitle-groups/${group.id}/mark-studied/`, { pairIds: [foreign?.id] })).toMatchObject({ status: 400, body: { error: "Some of these cards are not in this group." } });
      expect(await learner.post(`/api/subtitle-groups/${group.id}/mark-studied/`, { pairIds: "all" })).toMatchObject({ status: 400 });
      expect(await learner.post(`/api/subtitle-groups/${group.id}/mark-studied/`, { pairIds: [pairs[2]?.id, "\u0000"] })).toMatchObject({ status: 400, body: { error: "Some of these cards are not in this group." } });
      await learner.post(`/api/subtitle-pairs/${foreign?.id}/rate/`, { is_correct: true });
      const visitor = createStudyTestClient(app);
      await visitor.post(`/api/subtitle-pairs/${pairs[5]?.id}/rate/`, { is_correct: true });
      expect((await learner.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toMatchObject({ in_progress: 2, not_started: 12 });
      expect((await learner.post(`/api/subtitle-groups/${group.id}/reset-stats/`)).body).toEqual({ reset: true });
      expect((await learner.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toMatchObject({ in_progress: 0, not_started: 14 });
      expect((await learner.get(`/api/subtitle-groups/${otherGroup.id}/stats/`)).body).toMatchObject({ in_progress: 1 });
      expect((await visitor.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toMatchObject({ in_progress: 1 });
    });

    it("should count study changes made without a learner cookie per address, and refuse them past the limit writing nothing", async () => {
      const { limitedApp, owner, pairs } = await groupWithThreeNewLearnersIn10Minutes();
      const browser = createStudyTestClient(limitedApp);
      for (let rating = 0; rating < 5; rating += 1) expect((await browser.post(`/api/subtitle-pairs/${pairs[rating]?.id}/rate/`, { is_correct: true })).status).toBe(200);
      const script = createStudyTestClient(limitedApp);
      const rateWithoutLearnerCookie = async () => {
        script.cookies.delete("learner_id");
        return script.post(`/api/subtitle-pairs/${pairs[0]?.id}/rate/`, { is_correct: true });
      };
      for (let call = 0; call < 3; call += 1) expect((await rateWithoutLearnerCookie()).status).toBe(200);
      const records = async () => (await testDatabase.database.selectFrom("study_progress").select("learner_key").execute()).length;
      const recordsBefore = await records();
      const refused = await rateWithoutLearnerCookie();
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: tooManyNewLearnersMessage(600) });
      expect(refused.headers.get("Retry-After")).toBe("600");
      expect(await records()).toBe(recordsBefore);
      expect((await browser.post(`/api/subtitle-pairs/${pairs[6]?.id}/rate/`, { is_correct: true })).status).toBe(200);
      expect((await owner.post(`/api/subtitle-pairs/${pairs[0]?.id}/rate/`, { is_correct: true })).status).toBe(200);
      now = new Date(now.getTime() + 10 * 60_000);
      expect((await rateWithoutLearnerCookie()).status).toBe(200);
    });

    it("should count study changes with a made-up learner cookie per address, as without one, but not those of a learner whose unsigned cookie keeps records", async () => {
      const { limitedApp, groupId, pairs } = await groupWithThreeNewLearnersIn10Minutes();
      // A learner from before signatures: records under an unsigned id.
      const earlierLearner = createStudyTestClient(limitedApp);
      const earlierId = "EarlierLearnerAbcdefghijklmnop12";
      earlierLearner.cookies.set("learner_id", earlierId);
      await testDatabase.database
        .insertInto("study_progress")
        .values({ learner_key: `anonymous:${earlierId}`, pair_id: pairs[1]?.id ?? "", group_id: groupId, box: 2, review_count: 1, correct_count: 1, studied_at: now.toISOString(), last_reviewed_at: now.toISOString(), due_at: now.toISOString(), updated_at: now.toISOString() })
        .execute();
      const script = createStudyTestClient(limitedApp);
      const rateWith = (learnerCookie: string) => {
        script.cookies.set("learner_id", learnerCookie);
        return script.post(`/api/subtitle-pairs/${pairs[0]?.id}/rate/`, { is_correct: true });
      };
      const madeUp = (index: number) => `MadeUpLearner${String(index).padStart(19, "0")}`;
      expect((await rateWith(madeUp(1))).status).toBe(200);
      expect((await rateWith(`${madeUp(2)}.${"A".repeat(22)}`)).status).toBe(200);
      // A made-up signed cookie is no cookie: the answer gives a real one.
      expect(script.cookies.get("learner_id")).toMatch(/^[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{22}$/);
      expect((await rateWith(madeUp(3))).status).toBe(200);
      const refused = await rateWith(madeUp(4));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: tooManyNewLearnersMessage(600) });
      expect((await rateWith(`${madeUp(5)}.${"B".repeat(22)}`)).status).toBe(429);
      for (let rating = 0; rating < 3; rating += 1) expect((await earlierLearner.post(`/api/subtitle-pairs/${pairs[1]?.id}/rate/`, { is_correct: true })).status).toBe(200);
      expect((await earlierLearner.get(`/api/subtitle-groups/${groupId}/pairs/`)).body.pairs[1].current_box).toBe(5);
    });

    it("should refuse an anonymous learner's sixth memorization attempt with 403 and change nothing, but let a signed-in learner go on", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const pairs = await pairsOf(owner, group.id);
      const visitor = createStudyTestClient(app);
      for (const pair of pairs.slice(0, 4)) await memorize(visitor, pair.id);
      for (let answer = 0; answer < 3; answer += 1) await visitor.post(`/api/subtitle-pairs/${pairs[4]?.id}/rate/`, { is_correct: true });
      const fifth = await visitor.post(`/api/subtitle-pairs/${pairs[4]?.id}/rate/`, { is_correct: true });
      expect(fifth.body).toEqual({ pair: { id: pairs[4]?.id, current_box: 5 }, memorized: 5, anonymous_limit_reached: true, learning_state: { before: "in-progress", after: "memorized" } });
      const before = await visitor.get(`/api/subtitle-groups/${group.id}/stats/`);
      expect(before.body).toMatchObject({ memorized: 5, anonymous_limit_reached: true });

      for (const [pairId, isCorrect] of [[pairs[5]?.id, true], [pairs[0]?.id, false]] as const) {
        const refused = await visitor.post(`/api/subtitle-pairs/${pairId}/rate/`, { is_correct: isCorrect });
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ error: anonymousLimitMessage });
      }
      expect((await visitor.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toEqual(before.body);

      for (const pair of pairs.slice(0, 6)) await memorize(owner, pair.id);
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toMatchObject({ memorized: 6, anonymous_limit_reached: false });
    });

    it("should memorize exactly five cards when an anonymous learner sends every last rating at once", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const pairs = (await pairsOf(owner, group.id)).slice(0, 30);
      expect(pairs.length).toBeGreaterThan(6);
      const visitor = createStudyTestClient(app);
      for (const pair of pairs) for (let answer = 0; answer < 3; answer += 1) await visitor.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: true });
      const answers = await Promise.all(pairs.map((pair) => visitor.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: true })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
      expect(answers.filter((answer) => answer.status === 403)).toHaveLength(pairs.length - 5);
      expect((await visitor.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toMatchObject({ memorized: 5, anonymous_limit_reached: true });
    });

    it("should count both of two ratings of one card sent at once", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const [pair] = await pairsOf(owner, group.id);
      const answers = await Promise.all([0, 1].map(() => owner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: true })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(answers.map((answer) => answer.body.pair.current_box).sort()).toEqual([2, 3]);
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toMatchObject({ total_reviews: 2 });
    });

    it("should count the anonymous limit over every group of the learner", async () => {
      const owner = await signedIn("owner@example.ch");
      const first = await uploadGroup(owner);
      const second = await uploadGroup(owner);
      const visitor = createStudyTestClient(app);
      for (const pair of (await pairsOf(visitor, first.id)).slice(0, 5)) await memorize(visitor, pair.id);
      const [elsewhere] = await pairsOf(visitor, second.id);
      expect((await visitor.get(`/api/subtitle-groups/${second.id}/stats/`)).body).toMatchObject({ memorized: 0, anonymous_limit_reached: true });
      expect((await visitor.post(`/api/subtitle-pairs/${elsewhere?.id}/rate/`, { is_correct: true })).status).toBe(403);
    });

    it("should merge anonymous progress into the account when the learner signs in, the higher box winning, and clear the cookie", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const pairs = await pairsOf(owner, group.id);
      await createStudyTestClient(app).signUp("learner@example.ch");

      const browser = createStudyTestClient(app);
      await memorize(browser, pairs[0]?.id ?? ""); // anonymous box 5
      await browser.post(`/api/subtitle-pairs/${pairs[1]?.id}/rate/`, { is_correct: true }); // anonymous box 2
      await browser.post(`/api/subtitle-pairs/${pairs[3]?.id}/rate/`, { is_correct: true }); // anonymous only: box 2
      expect(browser.cookies.has("learner_id")).toBe(true);

      const account = createStudyTestClient(app);
      await account.signIn("learner@example.ch");
      await account.post(`/api/subtitle-pairs/${pairs[0]?.id}/rate/`, { is_correct: true }); // account box 2
      for (let answer = 0; answer < 3; answer += 1) await account.post(`/api/subtitle-pairs/${pairs[1]?.id}/rate/`, { is_correct: true }); // account box 4

      expect(await browser.post("/api/merge-progress/")).toMatchObject({ status: 401, body: { error: "Please sign in to keep your progress." } });
      // The sign-in itself merges, in its own answer: no call of the client's is needed.
      const signIn = await browser.signIn("learner@example.ch");
      expect(signIn.headers.getSetCookie().find((cookie) => cookie.startsWith("learner_id="))).toMatch(/Max-Age=0/);
      expect(browser.cookies.has("learner_id")).toBe(false);
      const boxes = (await pairsOf(browser, group.id)).slice(0, 4).map((pair) => pair.current_box);
      expect(boxes).toEqual([5, 4, 1, 2]);
      expect((await browser.get(`/api/subtitle-groups/${group.id}/stats/`)).body).toMatchObject({ total_reviews: 10, memorized: 1 });
      expect(await testDatabase.database.selectFrom("study_progress").select("learner_key").where("learner_key", "like", "anonymous:%").execute()).toEqual([]);
      expect((await browser.post("/api/merge-progress/")).body).toEqual({ merged: 0 });
    });
    it("should merge anonymous progress at sign-in while the film's owner merges and deletes its pairs", async () => {
      // Twenty films: on PostgreSQL a merge without the films' locks met the owner's edits in a deadlock (a 500 for one
      // of the two) or failed the foreign key of a pair deleted meanwhile (the sign-in went through, the progress not)
      // in about one film in five.
      for (let round = 0; round < 20; round += 1) {
        const owner = await signedIn(`owner-${round}@example.ch`);
        await createStudyTestClient(app).signUp(`learner-${round}@example.ch`);
        const group = await uploadGroup(owner);
        const pairs = await pairsOf(owner, group.id);
        const browsers = [createStudyTestClient(app), createStudyTestClient(app)];
        for (const browser of browsers) for (const pair of pairs) await browser.post(`/api/subtitle-pairs/${pair.id}/rate/`, { is_correct: true });

        const calls: { call: string; answer: Promise<{ status: number }> }[] = browsers.map((browser) => ({
          call: "sign-in",
          answer: browser.post("/_allauth/browser/v1/auth/login", { email: `learner-${round}@example.ch`, password: "correct horse battery" }),
        }));
        for (const [index, pair] of pairs.entries()) {
          if (index % 3 === 0) calls.push({ call: `delete ${index}`, answer: owner.delete(`/api/subtitle-pairs/${pair.id}/`) });
          if (index % 3 === 1) calls.push({ call: `merge ${index}`, answer: owner.post(`/api/subtitle-pairs/${pair.id}/merge-next/`) });
        }
        const answers = await Promise.all(calls.map(async ({ call, answer }) => ({ call, status: (await answer).status })));

        expect(answers.filter((answer) => answer.status >= 500).map((answer) => `${answer.call}: ${answer.status}`)).toEqual([]);
        expect(answers.filter((answer) => answer.call === "sign-in").map((answer) => answer.status)).toEqual([200, 200]);
        // Merged, or gone with its pair: no anonymous record is left behind.
        expect(await testDatabase.database.selectFrom("study_progress").select("learner_key").where("learner_key", "like", "anonymous:%").execute()).toEqual([]);
      }
    });
  });

  describe("limits per learner", () => {
    it("should answer the 11th upload within 10 minutes with 429, Retry-After and a sentence, before reading it", async () => {
      const owner = await signedIn("owner@example.ch");
      for (let upload = 0; upload < 10; upload += 1) expect((await owner.upload()).status).toBe(201);
      const refused = await owner.upload();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("600");
      expect(refused.body).toEqual({ error: "You have uploaded 10 pairs of files in the last 10 minutes. Please wait 10 minutes before the next upload." });
      expect((await owner.get("/api/subtitle-groups/")).body.groups).toHaveLength(10);
      now = new Date(now.getTime() + 10 * 60_000);
      expect((await owner.upload()).status).toBe(201);
    });

    it("should answer a learner's 601st rating within a minute with 429 and Retry-After", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const [pair] = await pairsOf(owner, group.id);
      const visitor = createStudyTestClient(app);
      await visitor.get(`/api/subtitle-groups/${group.id}/stats/`);
      for (let rating = 0; rating < 600; rating += 1) expect((await visitor.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: false })).status).toBe(200);
      const refused = await visitor.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: false });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: "Too many requests in a short time. Please wait a moment and try again." });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });

  describe("stats of a public group", () => {
    it("should tell an anonymous visitor whether the group is theirs, and not whose it is", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const visitor = createStudyTestClient(app);
      const stats = await visitor.get(`/api/subtitle-groups/${group.id}/stats/`);
      expect(stats.body.is_owner).toBe(false);
      expect(stats.body).not.toHaveProperty("owner_id");
      expect(JSON.stringify(stats.body)).not.toContain(owner.userId);
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).body.is_owner).toBe(true);
    });

    it("should forecast the learner's due cards for 7 days, and move them to today as the clock moves on", async () => {
      const owner = await signedIn("owner@example.ch");
      const group = await uploadGroup(owner);
      const [first, second, third] = await pairsOf(owner, group.id);
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).body.due_forecast).toEqual([0, 0, 0, 0, 0, 0, 0]);
      await owner.post(`/api/subtitle-pairs/${first?.id}/rate/`, { is_correct: false });
      await owner.post(`/api/subtitle-pairs/${second?.id}/rate/`, { is_correct: true });
      for (let answer = 0; answer < 2; answer += 1) await owner.post(`/api/subtitle-pairs/${third?.id}/rate/`, { is_correct: true });
      // Box 1 today, box 2 in 1 day, box 3 in 3 days.
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).body.due_forecast).toEqual([1, 1, 0, 1, 0, 0, 0]);
      now = new Date("2026-03-04T09:00:00.000Z");
      expect((await owner.get(`/api/subtitle-groups/${group.id}/stats/`)).body.due_forecast).toEqual([2, 1, 0, 0, 0, 0, 0]);
      expect((await createStudyTestClient(app).get(`/api/subtitle-groups/${group.id}/stats/`)).body.due_forecast).toEqual([0, 0, 0, 0, 0, 0, 0]);
    });
  });

});
