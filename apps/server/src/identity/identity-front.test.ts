import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type AtelierApp } from "../create-server.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import type { FrontRoute } from "../http/node-front.ts";
import { parityTestConfiguration, sendForParity, serveWithAndWithoutFront } from "../testing/front-parity-requests.ts";

const csrf = "abcdefghijklmnopqrstuvwxyz012345";
const sessionPath = "/_allauth/browser/v1/auth/session";
const configPath = "/_allauth/browser/v1/config";
const userAgent = "front-parity-test";
const send = (base: string, target: string, options: Parameters<typeof sendForParity>[2] = {}) => sendForParity(base, target, { ...options, userAgent });

describe.each(testDatabaseEngines)("given the node front before the app, on %s", (engine) => {
  let testDatabase: TestDatabase;
  let app: AtelierApp;
  let servers: Awaited<ReturnType<typeof serveWithAndWithoutFront>>;
  let appOnlyBase: string;
  let frontedBase: string;
  const now = { value: new Date("2026-03-02T09:00:00Z") };
  /** The paths the front's routes answered themselves (not handed to the app), in order. */
  const answeredInFront: string[] = [];
  let signedInCookies: string;
  let pendingCodeCookies: string;

  beforeAll(async () => {
    testDatabase = await openTestDatabase(engine);
    const configuration = parityTestConfiguration();
    app = createServer({ configuration, database: testDatabase.database, clock: () => now.value });
    const observedRoutes = new Map<string, FrontRoute>(
      [...app.nodeFront.routes].map(([target, route]) => [
        target,
        async (request) => {
          const answer = await route(request);
          if (answer !== null) answeredInFront.push(target);
          return answer;
        },
      ]),
    );
    servers = await serveWithAndWithoutFront(app, { ...app.nodeFront, routes: observedRoutes });
    ({ appOnlyBase, frontedBase } = servers);

    const origin = configuration.publicOrigin;
    const post = (target: string, body: unknown, cookies = `csrftoken=${csrf}`) =>
      send(frontedBase, `/_allauth/browser/v1${target}`, { method: "POST", headers: [["Content-Type", "application/json"], ["Origin", origin], ["X-CSRFToken", csrf], ["Cookie", cookies]], body: JSON.stringify(body) });
    const signup = await post("/auth/signup", { email: "front@example.ch", password: "correct horse battery" });
    expect(signup).toMatchObject({ status: 200 });
    const sessionCookie = /sessionid=[^;]+/.exec(signup.headers["set-cookie"] ?? "")?.[0];
    signedInCookies = `${sessionCookie}; csrftoken=${csrf}; atelier_signed_in=1`;
    const codeRequested = await post("/auth/code/request", { email: "front@example.ch" });
    expect(codeRequested.status).toBe(401);
    pendingCodeCookies = `${/sessionid=[^;]+/.exec(codeRequested.headers["set-cookie"] ?? "")?.[0]}; csrftoken=${csrf}`;
  }, 60_000);

  afterAll(async () => {
    servers.close();
    await testDatabase.destroy();
  });

  /** The same request to the app alone and to the front before it: the same answer, and whether the front answered. */
  async function sendToBoth(target: string, options: Parameters<typeof send>[2] = {}) {
    const before = answeredInFront.length;
    const fromTheApp = await send(appOnlyBase, target, options);
    const throughTheFront = await send(frontedBase, target, options);
    const { requestId: _appRequestId, ...appAnswer } = fromTheApp;
    const { requestId, ...frontAnswer } = throughTheFront;
    expect(frontAnswer).toEqual(appAnswer);
    return { answer: frontAnswer, requestId, answeredInFront: answeredInFront.length > before };
  }

  it("should answer a signed-in browser's session and configuration itself, exactly as the app does", async () => {
    const session = await sendToBoth(sessionPath, { headers: [["Cookie", signedInCookies]] });
    expect(session.answeredInFront).toBe(true);
    expect(session.answer.status).toBe(200);
    expect(JSON.parse(session.answer.body)).toMatchObject({ meta: { is_authenticated: true }, data: { user: { email: "front@example.ch" } } });
    expect(session.answer.headers).toMatchObject({ "cache-control": "max-age=0, no-cache, no-store, must-revalidate, private", "x-content-type-options": "nosniff" });
    expect(session.answer.headers["content-security-policy"]).toContain("default-src 'self'");

    const config = await sendToBoth(configPath, { headers: [["Cookie", signedInCookies]] });
    expect(config.answeredInFront).toBe(true);
    expect(JSON.parse(config.answer.body)).toMatchObject({ status: 200, data: { account: { login_methods: ["email"] } } });
  });

  it("should answer a visitor who never signed in itself: 401 with the flows", async () => {
    const visitor = await sendToBoth(sessionPath, { headers: [["Cookie", `csrftoken=${csrf}`]] });
    expect(visitor.answeredInFront).toBe(true);
    expect(visitor.answer.status).toBe(401);
    expect(JSON.parse(visitor.answer.body)).toMatchObject({ meta: { is_authenticated: false } });
  });

  it("should keep the client's plain request id and replace any other", async () => {
    const kept = await sendToBoth(sessionPath, { headers: [["Cookie", signedInCookies], ["X-Request-Id", "from-the-proxy-42"]] });
    expect(kept.answeredInFront).toBe(true);
    expect(kept.requestId).toBe("from-the-proxy-42");
    const replaced = await sendToBoth(sessionPath, { headers: [["Cookie", signedInCookies], ["X-Request-Id", "two words"]] });
    expect(replaced.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ["no CSRF cookie (the app sets one)", () => [["Cookie", signedInCookies.replace(`csrftoken=${csrf}`, "other=1")]]],
    ["no signed-in hint (the app sets it)", () => [["Cookie", signedInCookies.replace("; atelier_signed_in=1", "")]]],
    ["an unknown session (the app deletes its cookie)", () => [["Cookie", `sessionid=unknown; csrftoken=${csrf}; atelier_signed_in=1`]]],
    ["a hint but no session (the app deletes the hint)", () => [["Cookie", `csrftoken=${csrf}; atelier_signed_in=1`]]],
    ["a pending sign-in by code (its flow may have expired)", () => [["Cookie", pendingCodeCookies]]],
    ["two Cookie headers", () => [["Cookie", `csrftoken=${csrf}`], ["Cookie", signedInCookies]]],
  ] as [string, () => [string, string][]][])("should leave a request with %s to the app", async (_case, headersOf) => {
    const both = await sendToBoth(sessionPath, { headers: headersOf() });
    expect(both.answeredInFront).toBe(false);
  });

  it("should leave a request to the app when the session's activity is due to be recorded", async () => {
    const before = answeredInFront.length;
    now.value = new Date(now.value.getTime() + 61_000);
    const due = await send(frontedBase, sessionPath, { headers: [["Cookie", signedInCookies]] });
    expect(due.status).toBe(200);
    expect(answeredInFront.length).toBe(before);
    // Recorded by the app: the next one is quiet again.
    expect((await sendToBoth(sessionPath, { headers: [["Cookie", signedInCookies]] })).answeredInFront).toBe(true);
  });

  it("should only look at a plain GET of its exact paths", async () => {
    const before = answeredInFront.length;
    for (const [target, method] of [
      [`${sessionPath}?refresh=1`, "GET"],
      [`${sessionPath}/`, "GET"],
      [sessionPath, "HEAD"],
    ] as const) {
      await sendToBoth(target, { method, headers: [["Cookie", signedInCookies]] });
    }
    await send(frontedBase, sessionPath, { headers: [["Cookie", signedInCookies], ["Content-Length", "2"]], body: "{}" });
    expect(answeredInFront.length).toBe(before);
  });

  it("should leave every request to the app while the server drains", async () => {
    const before = answeredInFront.length;
    app.nodeFront.lifecycle.state = "draining";
    try {
      const answer = await send(frontedBase, sessionPath, { headers: [["Cookie", signedInCookies]] });
      expect(answer.status).toBe(503);
    } finally {
      app.nodeFront.lifecycle.state = "serving";
    }
    expect(answeredInFront.length).toBe(before);
  });

  // Last: it changes the signed-in user's address and ends the session.
  it("should answer from the identity tables as they are now, a session it answered before included (decision 0052)", async () => {
    expect((await sendToBoth(sessionPath, { headers: [["Cookie", signedInCookies]] })).answeredInFront).toBe(true);
    await testDatabase.database.updateTable("identity_email_address").set({ email: "front.renamed@example.ch" }).where("email", "=", "front@example.ch").execute();
    const renamed = await sendToBoth(sessionPath, { headers: [["Cookie", signedInCookies]] });
    expect(renamed.answeredInFront).toBe(true);
    expect(JSON.parse(renamed.answer.body)).toMatchObject({ data: { user: { email: "front.renamed@example.ch" } } });

    await testDatabase.database.deleteFrom("identity_session").where("user_id", "is not", null).execute();
    const ended = await sendToBoth(sessionPath, { headers: [["Cookie", signedInCookies]] });
    expect(ended.answeredInFront).toBe(false);
    expect(ended.answer.status).toBe(401);
  });
});
