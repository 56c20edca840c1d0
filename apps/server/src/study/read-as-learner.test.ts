import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import type { AuthenticatedUser, IdentityService } from "../identity/index.ts";
import { readAsLearner, type Learner } from "./learner.ts";
import { groupNotFoundMessage } from "./study-routes.ts";
import { createIdentityTestApp } from "../identity/testing/test-app.ts";
import { createStudyTestApp } from "./testing/study-test-app.ts";
import { createStudyTestClient } from "./testing/study-test-client.ts";

type Deferred<Value> = { promise: Promise<Value>; resolve: (value: Value) => void; reject: (error: unknown) => void };

function deferred<Value>(): Deferred<Value> {
  let resolve!: (value: Value) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Value>((resolveWith, rejectWith) => {
    resolve = resolveWith;
    reject = rejectWith;
  });
  return { promise, resolve, reject };
}

function userOf(id: string): AuthenticatedUser {
  return { id, email: `${id}@example.ch`, display: id, hasUsablePassword: true, client: "browser", sessionId: `session-of-${id}` };
}

/**
 * A route that reads as its learner, with an identity whose guess and session are the test's: the session's read stays
 * pending until the test settles it, so the test sees what started before it.
 */
function readingApp(guessedUserId: string | null, session: Promise<AuthenticatedUser | null>, read: (learner: Learner) => Promise<string>) {
  const app = new Hono();
  app.use(async (c, next) => {
    c.set("identity" as never, { guessAuthenticatedUserId: () => guessedUserId, getAuthenticatedUser: () => session } as unknown as IdentityService as never);
    await next();
  });
  app.get("/read", async (c) => {
    const [learner, value] = await readAsLearner(c, { secure: false, signingKey: "test signing key" }, read);
    return c.json({ learner: learner.key, value });
  });
  app.onError((error, c) => c.json({ error: error.message }, 500));
  return app;
}

describe("given a read started on the learner the session is guessed to be", () => {
  it("should start the read for the guessed user before the session is read, and answer it once the session agrees", async () => {
    const session = deferred<AuthenticatedUser | null>();
    const readsFor: string[] = [];
    const app = readingApp("anna", session.promise, async (learner) => {
      readsFor.push(learner.key);
      return `cards of ${learner.key}`;
    });
    const answer = app.request("/read");
    await new Promise((resolve) => setImmediate(resolve));
    expect(readsFor).toEqual(["user:anna"]);
    session.resolve(userOf("anna"));
    expect(await (await answer).json()).toEqual({ learner: "user:anna", value: "cards of user:anna" });
    expect(readsFor).toEqual(["user:anna"]);
  });

  it("should drop what was read for the guess when the session is no longer that user's, and read again for the real learner", async () => {
    const readsFor: string[] = [];
    const app = readingApp("anna", Promise.resolve(null), async (learner) => {
      readsFor.push(learner.key);
      if (learner.kind === "signed-in") throw new Error("Anna's private group, which an anonymous visitor may not see");
      return `cards of ${learner.kind}`;
    });
    const response = await app.request("/read", { headers: { Cookie: "learner_id=abcdefghijklmnopqrstuvwxyz012345" } });
    expect(await response.json()).toEqual({ learner: "anonymous:abcdefghijklmnopqrstuvwxyz012345", value: "cards of anonymous" });
    expect(readsFor).toEqual(["user:anna", "anonymous:abcdefghijklmnopqrstuvwxyz012345"]);
  });

  it("should read once, after the session, when there is no guess", async () => {
    const session = deferred<AuthenticatedUser | null>();
    const readsFor: string[] = [];
    const app = readingApp(null, session.promise, async (learner) => {
      readsFor.push(learner.key);
      return "cards";
    });
    const answer = app.request("/read");
    await new Promise((resolve) => setImmediate(resolve));
    expect(readsFor).toEqual([]);
    session.resolve(userOf("bert"));
    expect(await (await answer).json()).toEqual({ learner: "user:bert", value: "cards" });
    expect(readsFor).toEqual(["user:bert"]);
  });

  it("should answer the read's failure when the guess holds, and the session's failure before any read's", async () => {
    const failingRead = async () => {
      throw new Error("the read failed");
    };
    expect(await (await readingApp("anna", Promise.resolve(userOf("anna")), failingRead).request("/read")).json()).toEqual({ error: "the read failed" });
    expect(await (await readingApp("anna", Promise.reject(new Error("the session's read failed")), failingRead).request("/read")).json()).toEqual({ error: "the session's read failed" });
  });
});

let testDatabase: TestDatabase;

describe.each(testDatabaseEngines)("given a session ended behind this process's back on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should answer the owner's private group as missing to the ended session, though this process last saw it signed in", async () => {
    const app = createStudyTestApp(testDatabase);
    const owner = createStudyTestClient(app);
    await owner.signUp("owner@example.ch");
    const upload = await owner.upload({ isPublic: "false" });
    expect(upload.status, upload.text).toBe(201);
    const groupId = upload.body.group.id as string;
    const calls = [`/api/subtitle-groups/${groupId}/stats/`, `/api/subtitle-groups/${groupId}/pairs/`, `/api/subtitle-groups/${groupId}/preview/`, `/api/subtitle-groups/${groupId}/available-cards/`];
    for (const call of calls) expect((await owner.get(call)).status, call).toBe(200);

    // Another process signs the owner out: this one still remembers the session as the owner's.
    await testDatabase.database.deleteFrom("identity_session").execute();

    for (const call of calls) expect(await owner.get(call), call).toMatchObject({ status: 404, body: { error: groupNotFoundMessage } });
  });

  it("should count a rating made with an ended session as the visitor's it now is, not as the session's last user's", async () => {
    // The limit counts in the clock's minute: a real clock crossing a minute between the upload and the third rating
    // started a new window and answered it 200 (seen once in CI).
    const now = new Date("2026-03-10T10:00:20.000Z");
    const app = createIdentityTestApp(testDatabase, { environment: { ACCOUNT_EMAIL_VERIFICATION: "none", STUDY_RATE_LIMIT: "3/1m" }, clock: () => now });
    const owner = createStudyTestClient(app);
    await owner.signUp("owner@example.ch");
    const upload = await owner.upload({ isPublic: "true" });
    expect(upload.status, upload.text).toBe(201);
    const [pair] = (await owner.get(`/api/subtitle-groups/${upload.body.group.id}/pairs/`)).body.pairs as { id: string }[];
    // The upload was the first of the owner's three calls a minute, these two the others.
    for (let rating = 0; rating < 2; rating += 1) expect((await owner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: true })).status).toBe(200);
    expect((await owner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: true })).status).toBe(429);

    await testDatabase.database.deleteFrom("identity_session").execute();
    // The browser has studied anonymously before: its learner cookie now names the learner, and its calls are counted.
    owner.cookies.set("learner_id", "abcdefghijklmnopqrstuvwxyz012345");

    const rating = await owner.post(`/api/subtitle-pairs/${pair?.id}/rate/`, { is_correct: true });
    expect(rating.status, rating.text).toBe(200);
    expect(rating.body.pair).toEqual({ id: pair?.id, current_box: 2 });
  });
});
