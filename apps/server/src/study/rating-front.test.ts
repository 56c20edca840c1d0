import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createServer, type AtelierApp } from "../create-server.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import type { FrontPostRoute } from "../http/node-front.ts";
import { parityTestConfiguration, sendForParity, serveWithAndWithoutFront } from "../testing/front-parity-requests.ts";
import { hashToken } from "../identity/secrets.ts";
import { learnerCookieValueOf } from "./learner.ts";
import { insertGroupWithPairs } from "./study-store.ts";

const csrf = "abcdefghijklmnopqrstuvwxyz012345";
const learnerId = "abcdefghijklmnopqrstuvwxyz012345";
let learnerCookie = "";
/** Small, so that a window fills within a test; each test starts a new window (the clock moves a minute on). */
const studyCallsPerMinute = 6;

describe.each(testDatabaseEngines)("given the node front's rating before the app, on %s", (engine) => {
  let testDatabase: TestDatabase;
  let app: AtelierApp;
  let servers: Awaited<ReturnType<typeof serveWithAndWithoutFront>>;
  let appOnlyBase: string;
  let frontedBase: string;
  let origin: string;
  let signedInCookies: string;
  let userId: string;
  const now = { value: new Date("2026-03-02T09:00:00Z") };
  /** How many requests the front's rating answered itself (not handed to the app). */
  let answeredInFront = 0;
  /** New cards, each rated once through the app alone and once (another card) through the front. */
  let unratedPairIds: string[] = [];

  beforeAll(async () => {
    testDatabase = await openTestDatabase(engine);
    const configuration = parityTestConfiguration({ STUDY_RATE_LIMIT: `${studyCallsPerMinute}/1m` });
    origin = configuration.publicOrigin;
    learnerCookie = `learner_id=${learnerCookieValueOf(learnerId, configuration.secretKey)}`;
    app = createServer({ configuration, database: testDatabase.database, clock: () => now.value });
    const observedPostRoutes = app.nodeFront.postRoutes.map(({ target, route }) => ({
      target,
      route: (async (request) => {
        const answer = await route(request);
        if (answer !== null) answeredInFront += 1;
        return answer;
      }) satisfies FrontPostRoute,
    }));
    servers = await serveWithAndWithoutFront(app, { ...app.nodeFront, postRoutes: observedPostRoutes });
    ({ appOnlyBase, frontedBase } = servers);

    const signup = await sendForParity(appOnlyBase, "/_allauth/browser/v1/auth/signup", {
      method: "POST",
      headers: [["Content-Type", "application/json"], ["Origin", origin], ["X-CSRFToken", csrf], ["Cookie", `csrftoken=${csrf}`]],
      body: JSON.stringify({ email: "rating-front@example.ch", password: "correct horse battery" }),
    });
    expect(signup.status).toBe(200);
    userId = (JSON.parse(signup.body) as { data: { user: { id: string } } }).data.user.id;
    signedInCookies = `${/sessionid=[^;]+/.exec(signup.headers["set-cookie"] ?? "")?.[0]}; csrftoken=${csrf}`;
    const groupId = crypto.randomUUID();
    const pairs = Array.from({ length: 80 }, (_, index) => ({ english: `Line ${index}`, swedish: `Rad ${index}`, confidence: 1 }));
    await insertGroupWithPairs(testDatabase.database, { id: groupId, ownerId: userId, name: "Front", isPublic: true, report: {} as never, createdAt: now.value.toISOString() }, pairs);
    const listed = await sendForParity(appOnlyBase, `/api/subtitle-groups/${groupId}/pairs/`, { headers: [["Cookie", signedInCookies]] });
    unratedPairIds = (JSON.parse(listed.body) as { pairs: { id: string }[] }).pairs.map((pair) => pair.id);
  }, 60_000);

  afterAll(async () => {
    servers.close();
    await testDatabase.destroy();
  });

  beforeEach(() => {
    now.value = new Date(now.value.getTime() + 61_000);
  });

  function newPairId(): string {
    const pairId = unratedPairIds.shift();
    if (pairId === undefined) throw new Error("The test group has no unrated card left.");
    return pairId;
  }

  type RatingRequest = { target?: (pairId: string) => string; headers?: [string, string][]; body?: string };

  const ratingHeaders = (cookies: string): [string, string][] => [
    ["Content-Type", "application/json"],
    ["Origin", origin],
    ["X-CSRFToken", csrf],
    ["Cookie", cookies],
  ];

  function sendRating(base: string, pairId: string, request: RatingRequest = {}) {
    const target = request.target?.(pairId) ?? `/api/subtitle-pairs/${pairId}/rate/`;
    return sendForParity(base, target, { method: "POST", headers: request.headers ?? ratingHeaders(signedInCookies), body: request.body ?? '{"is_correct":true}' });
  }

  /**
   * The same request for two new cards in the same state, one to the app alone and one to the front: the same answer
   * but for the card's id; and whether the front answered it.
   */
  async function rateOnBoth(request: RatingRequest = {}) {
    const [appPairId, frontPairId] = [newPairId(), newPairId()];
    const before = answeredInFront;
    const { requestId: _appRequestId, ...fromTheApp } = await sendRating(appOnlyBase, appPairId, request);
    const { requestId: _frontRequestId, ...throughTheFront } = await sendRating(frontedBase, frontPairId, request);
    const withoutId = (answer: typeof fromTheApp, pairId: string) => ({ ...answer, body: answer.body.replaceAll(pairId, "(card)") });
    expect(withoutId(throughTheFront, frontPairId)).toEqual(withoutId(fromTheApp, appPairId));
    return { answer: throughTheFront, answeredInFront: answeredInFront > before, appPairId, frontPairId };
  }

  it("should rate a signed-in learner's card itself, exactly as the app does, and keep what it rated", async () => {
    const first = await rateOnBoth();
    expect(first.answeredInFront).toBe(true);
    expect(first.answer.status).toBe(200);
    expect(JSON.parse(first.answer.body)).toEqual({ pair: { id: first.frontPairId, current_box: 2 }, memorized: 0, anonymous_limit_reached: false, learning_state: { before: "new", after: "in-progress" } });
    expect(first.answer.headers).toMatchObject({ "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" });

    // The second rating of the same card starts where the first left it, whichever answered the first.
    const again = await sendRating(frontedBase, first.frontPairId);
    const againThroughTheApp = await sendRating(appOnlyBase, first.appPairId);
    expect(JSON.parse(again.body)).toMatchObject({ pair: { current_box: 3 }, learning_state: { before: "in-progress", after: "in-progress" } });
    expect(JSON.parse(againThroughTheApp.body)).toMatchObject({ pair: { current_box: 3 } });
  });

  it("should answer a wrong answer, an unknown card and a charset the same way as the app", async () => {
    expect((await rateOnBoth({ body: '{"is_correct":false}' })).answeredInFront).toBe(true);
    const unknown = await rateOnBoth({ target: () => `/api/subtitle-pairs/${crypto.randomUUID()}/rate/` });
    expect(unknown.answeredInFront).toBe(true);
    expect(unknown.answer.status).toBe(404);
    expect(JSON.parse(unknown.answer.body)).toEqual({ error: "This flashcard pair does not exist." });
    const withCharset = await rateOnBoth({ headers: [["Content-Type", "application/json; charset=utf-8"], ...ratingHeaders(signedInCookies).slice(1)] });
    expect(withCharset.answeredInFront).toBe(true);
  });

  it.each([
    ["an anonymous learner", () => `${learnerCookie}; csrftoken=${csrf}`],
    ["an unknown session and a learner cookie", () => `sessionid=unknown; ${learnerCookie}; csrftoken=${csrf}`],
    ["a session and a learner cookie (the session's user rates)", () => `${signedInCookies}; ${learnerCookie}`],
  ])("should rate for %s itself, as the app does", async (_case, cookiesOf) => {
    const both = await rateOnBoth({ headers: ratingHeaders(cookiesOf()) });
    expect(both.answeredInFront).toBe(true);
    expect(both.answer.status).toBe(200);
  });

  it.each([
    ["no learner cookie", `csrftoken=${csrf}`],
    ["a malformed learner cookie beside an unknown session", `sessionid=unknown; learner_id=short; csrftoken=${csrf}`],
    ["a learner cookie whose signature is not the server's", `learner_id=${learnerId}.${"A".repeat(22)}; csrftoken=${csrf}`],
  ])("should leave a visitor with %s to the app, which gives them a new one", async (_case, cookies) => {
    const before = answeredInFront;
    const answer = await sendRating(frontedBase, newPairId(), { headers: ratingHeaders(cookies) });
    expect(answer.status).toBe(200);
    expect(answer.headers["set-cookie"]).toMatch(/^learner_id=[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{22};/);
    expect(answeredInFront).toBe(before);
  });

  it("should leave an unsigned learner cookie (issued before signatures) to the app, which checks it against the records", async () => {
    const before = answeredInFront;
    const answer = await sendRating(frontedBase, newPairId(), { headers: ratingHeaders(`learner_id=${learnerId}; csrftoken=${csrf}`) });
    expect(answer.status).toBe(200);
    expect(answeredInFront).toBe(before);
  });

  it("should refuse a learner over the limit with the app's 429, counting what it left to the app once", async () => {
    // Two refused by the app (400), one sent to each server: counted there, and only there.
    expect((await rateOnBoth({ body: "{" })).answer.status).toBe(400);
    // Four ratings fill the window of six; had the front counted the refused one too, the last would be refused.
    expect((await rateOnBoth()).answer.status).toBe(200);
    expect((await rateOnBoth()).answer.status).toBe(200);
    const limited = await rateOnBoth();
    expect(limited.answeredInFront).toBe(true);
    expect(limited.answer.status).toBe(429);
    // The window is the clock's minute: what is left of it.
    expect(Number(limited.answer.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(limited.answer.body)).toEqual({ error: "Too many requests in a short time. Please wait a moment and try again." });
  });

  it.each([
    ["a body that is not JSON", () => ({ body: "{" })],
    ["a body of the wrong shape", () => ({ body: '{"is_correct":"yes"}' })],
    ["a list for a body", () => ({ body: "[true]" })],
    ["a body behind a byte order mark", () => ({ body: '\uFEFF{"is_correct":true}' })],
    ["a text/plain body", () => ({ headers: [["Content-Type", "text/plain"], ...ratingHeaders(signedInCookies).slice(1)] })],
    ["no Origin", () => ({ headers: ratingHeaders(signedInCookies).filter(([name]) => name !== "Origin") })],
    ["another Origin", () => ({ headers: [...ratingHeaders(signedInCookies).filter(([name]) => name !== "Origin"), ["Origin", "https://elsewhere.example"]] })],
    ["no CSRF header", () => ({ headers: ratingHeaders(signedInCookies).filter(([name]) => name !== "X-CSRFToken") })],
    ["a CSRF header that differs from the cookie", () => ({ headers: [...ratingHeaders(signedInCookies).filter(([name]) => name !== "X-CSRFToken"), ["X-CSRFToken", "z".repeat(32)]] })],
    // With a learner cookie, so that the app sets no new (random) one and the answers can be compared.
    ["an app's session token", () => ({ headers: [...ratingHeaders(`${signedInCookies}; ${learnerCookie}`), ["X-Session-Token", "not-a-session"]] })],
    ["two Cookie headers", () => ({ headers: [...ratingHeaders(signedInCookies), ["Cookie", "other=1"]] })],
    ["a query", () => ({ target: (pairId: string) => `/api/subtitle-pairs/${pairId}/rate/?again=1` })],
    ["a percent-encoded id", () => ({ target: (pairId: string) => `/api/subtitle-pairs/${pairId.replace("-", "%2D")}/rate/` })],
    ["a body over the front's 4 KiB", () => ({ body: `{"is_correct":true${" ".repeat(5_000)}}` })],
  ] as [string, () => RatingRequest][])("should leave a rating with %s to the app", async (_case, requestOf) => {
    // Built when the test runs: the session and the origin are known only then.
    const both = await rateOnBoth(requestOf());
    expect(both.answeredInFront).toBe(false);
  });

  it("should rate as the anonymous learner once the session has ended in another process, though it guessed its user", async () => {
    const signIn = await sendForParity(appOnlyBase, "/_allauth/browser/v1/auth/login", {
      method: "POST",
      headers: [["Content-Type", "application/json"], ["Origin", origin], ["X-CSRFToken", csrf], ["Cookie", `csrftoken=${csrf}`]],
      body: JSON.stringify({ email: "rating-front@example.ch", password: "correct horse battery" }),
    });
    expect(signIn.status).toBe(200);
    const sessionCookie = /sessionid=([^;]+)/.exec(signIn.headers["set-cookie"] ?? "");
    const cookies = `sessionid=${sessionCookie?.[1]}; ${learnerCookie}; csrftoken=${csrf}`;
    const pairId = newPairId();
    // Read once through the front: the process now guesses this session's user.
    expect(JSON.parse((await sendRating(frontedBase, pairId, { headers: ratingHeaders(cookies) })).body)).toMatchObject({ pair: { current_box: 2 } });
    // Another process signs the session out: its row is gone, and this process is not told.
    await testDatabase.database.deleteFrom("identity_session").where("token_hash", "=", hashToken(sessionCookie?.[1] ?? "")).execute();
    const afterSignOut = await sendRating(frontedBase, pairId, { headers: ratingHeaders(cookies) });
    // Rated for the anonymous learner of the cookie, for whom the card is new: not for the user it guessed, whose
    // record of the card holds the first rating alone.
    expect(JSON.parse(afterSignOut.body)).toMatchObject({ pair: { current_box: 2 }, learning_state: { before: "new" } });
    const userRecord = await testDatabase.database.selectFrom("study_progress").select("review_count").where("learner_key", "=", `user:${userId}`).where("pair_id", "=", pairId).executeTakeFirstOrThrow();
    expect(Number(userRecord.review_count)).toBe(1);
    // The same through the app alone, on another card the user rated first.
    const otherPairId = newPairId();
    await sendRating(appOnlyBase, otherPairId);
    expect(JSON.parse((await sendRating(appOnlyBase, otherPairId, { headers: ratingHeaders(cookies) })).body)).toMatchObject({ learning_state: { before: "new" } });
  });

  it("should rate each of ratings sent at once while the session ends exactly once, for the user or for the cookie", async () => {
    const signIn = await sendForParity(appOnlyBase, "/_allauth/browser/v1/auth/login", {
      method: "POST",
      headers: [["Content-Type", "application/json"], ["Origin", origin], ["X-CSRFToken", csrf], ["Cookie", `csrftoken=${csrf}`]],
      body: JSON.stringify({ email: "rating-front@example.ch", password: "correct horse battery" }),
    });
    const token = /sessionid=([^;]+)/.exec(signIn.headers["set-cookie"] ?? "")?.[1] ?? "";
    const cookies = `sessionid=${token}; ${learnerCookie}; csrftoken=${csrf}`;
    const pairId = newPairId();
    expect((await sendRating(frontedBase, pairId, { headers: ratingHeaders(cookies) })).status).toBe(200);
    // Five more (the window holds six a learner), and the sign-out of another process among them.
    const [answers] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => sendRating(frontedBase, pairId, { headers: ratingHeaders(cookies) }))),
      testDatabase.database.deleteFrom("identity_session").where("token_hash", "=", hashToken(token)).execute(),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const reviews = await testDatabase.database.selectFrom("study_progress").select(["learner_key", "review_count"]).where("pair_id", "=", pairId).execute();
    expect(reviews.map((row) => row.learner_key).every((key) => key === `user:${userId}` || key.startsWith("anonymous:"))).toBe(true);
    expect(reviews.reduce((sum, row) => sum + Number(row.review_count), 0)).toBe(6);
  });

  it("should leave a rating with a chunked body to the app", async () => {
    const before = answeredInFront;
    const pairId = newPairId();
    const answer = await sendForParity(frontedBase, `/api/subtitle-pairs/${pairId}/rate/`, {
      method: "POST",
      headers: [...ratingHeaders(signedInCookies), ["Transfer-Encoding", "chunked"]],
      body: '{"is_correct":true}',
    });
    expect(answer.status).toBe(200);
    expect(answeredInFront).toBe(before);
  });

  it("should leave every rating to the app while the server drains", async () => {
    const before = answeredInFront;
    app.nodeFront.lifecycle.state = "draining";
    try {
      expect((await sendRating(frontedBase, newPairId())).status).toBe(503);
    } finally {
      app.nodeFront.lifecycle.state = "serving";
    }
    expect(answeredInFront).toBe(before);
  });
});
