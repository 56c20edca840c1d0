import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Configuration } from "../../config.ts";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../../database/test-databases.ts";
import { createIdentityTestClient, readLastCode, testOrigin, type IdentityTestClient } from "../testing/identity-test-client.ts";
import { signInAtLocalProvider, type ProviderSignInChoice } from "../testing/provider-user-agent.ts";
import { createIdentityTestApp } from "../testing/test-app.ts";
import { addLocalOpenIdProvider, localOpenIdRedirectUriOf, startLocalOpenIdProvider, type LocalOpenIdProvider } from "./local-openid-provider.ts";

const password = "correct horse battery";
const callbackPath = "/account/provider/callback";
const callbackUrl = `${testOrigin}${callbackPath}`;

let localProvider: LocalOpenIdProvider;
let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;

function createApp(configure: (configuration: Configuration) => Configuration = (configuration) => addLocalOpenIdProvider(configuration, localProvider)) {
  return createIdentityTestApp(testDatabase, { clock, configure });
}

/** Starts a provider sign-in from the page and returns where the site sends the browser once the provider is done. */
async function signInWithProvider(browser: IdentityTestClient, choice: ProviderSignInChoice, options: { process?: "login" | "connect"; callback?: string } = {}): Promise<URL> {
  const redirect = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "local", process: options.process ?? "login", callback_url: options.callback ?? callbackUrl });
  expect(redirect.status).toBe(302);
  const authorizationUrl = redirect.headers.get("location") ?? "";
  expect(authorizationUrl.startsWith(`${localProvider.issuer}/`)).toBe(true);
  const back = await signInAtLocalProvider(authorizationUrl, choice, testOrigin);
  expect(back.pathname).toBe("/accounts/local/login/callback/");
  const answer = await browser.get(`${back.pathname}${back.search}`);
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get("location") ?? "", testOrigin);
}

async function signUpWithPassword(browser: IdentityTestClient, email: string, options: { verify: boolean }) {
  expect((await browser.post("/auth/signup", { email, password })).status).toBe(401);
  if (options.verify) {
    expect((await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, email) })).status).toBe(200);
    // A signup records no authentication (API.md §2); connecting a provider needs a recent one.
    expect((await browser.post("/auth/reauthenticate", { password })).status).toBe(200);
  }
}

async function socialAccountRows() {
  return testDatabase.database.selectFrom("identity_social_account").select(["user_id", "provider", "uid", "display"]).orderBy("created_at").execute();
}

beforeAll(async () => {
  localProvider = await startLocalOpenIdProvider({ port: 0, redirectUris: [localOpenIdRedirectUriOf(testOrigin)] });
});

afterAll(async () => {
  await localProvider.close();
});

describe.each(testDatabaseEngines)("given the identity service on %s with the local OpenID provider", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date();
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should list the provider in the config and in the flows", async () => {
    const browser = createIdentityTestClient(createApp());
    const config = await browser.get("/config");
    expect(config.body.data.socialaccount).toEqual({
      providers: [
        {
          id: "local",
          name: "Test ID (local)",
          flows: ["provider_redirect"],
          client_id: "atelier-local",
          openid_configuration_url: `${localProvider.issuer}/.well-known/openid-configuration`,
        },
      ],
    });
    const session = await browser.get("/auth/session");
    expect(session.body.data.flows).toContainEqual({ id: "provider_redirect", providers: ["local"] });
  });

  it("should offer app clients no provider redirect and set them no csrftoken cookie, as allauth does", async () => {
    const app = createApp();
    const phone = createIdentityTestClient(app, { client: "app" });
    const session = await phone.get("/auth/session");
    expect(session.status).toBe(401);
    expect(session.body.data.flows.map((flow: { id: string }) => flow.id)).not.toContain("provider_redirect");
    for (const path of ["/_allauth/app/v1/config", "/_allauth/app/v1/auth/session"]) {
      const response = await app.request(path, { headers: { "X-Forwarded-For": "203.0.113.9" } });
      expect(response.headers.getSetCookie().filter((cookie) => cookie.startsWith("csrftoken=")), path).toEqual([]);
    }
    const browser = createIdentityTestClient(app);
    expect((await browser.get("/auth/session")).body.data.flows).toContainEqual({ id: "provider_redirect", providers: ["local"] });
    expect((await app.request("/_allauth/browser/v1/config")).headers.getSetCookie().some((cookie) => cookie.startsWith("csrftoken="))).toBe(true);
  });

  it("should give a new user with a verified e-mail an account, and sign the same user in when they come back", async () => {
    const browser = createIdentityTestClient(createApp());
    const back = await signInWithProvider(browser, { accountId: "ada", preset: true });
    expect(back.href).toBe(callbackUrl);
    const session = await browser.get("/auth/session");
    expect(session.status).toBe(200);
    expect(session.body.data.user).toMatchObject({ email: "ada@example.test", has_usable_password: false });
    expect(session.body.data.methods).toEqual([{ method: "socialaccount", at: expect.any(Number), provider: "local", uid: "ada" }]);
    const userId = session.body.data.user.id;
    expect((await browser.get("/account/email")).body.data).toEqual([{ email: "ada@example.test", verified: true, primary: true }]);
    const connected = await browser.get("/account/providers");
    expect(connected.body.data).toEqual([{ uid: "ada", display: "Ada Lovelace", provider: expect.objectContaining({ id: "local", name: "Test ID (local)" }) }]);

    expect((await browser.delete("/auth/session")).status).toBe(401);
    expect((await signInWithProvider(browser, { accountId: "ada", preset: true })).href).toBe(callbackUrl);
    const again = await browser.get("/auth/session");
    expect(again.status).toBe(200);
    expect(again.body.data.user.id).toBe(userId);
    expect(await socialAccountRows()).toHaveLength(1);
  });

  it("should ask for an e-mail address when the provider gives none, then verify it", async () => {
    const browser = createIdentityTestClient(createApp());
    expect((await signInWithProvider(browser, { accountId: "grace", preset: true })).href).toBe(callbackUrl);
    const session = await browser.get("/auth/session");
    expect(session.status).toBe(401);
    expect(session.body.data.flows).toContainEqual({ id: "provider_signup", provider: expect.objectContaining({ id: "local" }), is_pending: true });
    const pending = await browser.get("/auth/provider/signup");
    expect(pending.status).toBe(200);
    expect(pending.body.data).toEqual({
      email: [],
      account: { uid: "grace", display: "Grace Hopper", provider: expect.objectContaining({ id: "local" }) },
      user: { display: "user", has_usable_password: false },
    });
    const missing = await browser.post("/auth/provider/signup", {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ message: "This field is required.", code: "required", param: "email" }]);
    const signup = await browser.post("/auth/provider/signup", { email: "grace@example.test" });
    expect(signup.status).toBe(401);
    expect(signup.body.data.flows).toContainEqual({ id: "verify_email", is_pending: true });
    const verified = await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "grace@example.test") });
    expect(verified.status).toBe(200);
    expect(verified.body.data.methods).toEqual([{ method: "socialaccount", at: expect.any(Number), provider: "local", uid: "grace" }]);
    expect((await browser.get("/auth/provider/signup")).status).toBe(409);
  });

  it("should send a provider e-mail that matches an unverified account through provider signup, not into that account", async () => {
    const owner = createIdentityTestClient(createApp(), { ip: "203.0.113.20" });
    await signUpWithPassword(owner, "shared@example.test", { verify: false });
    const browser = createIdentityTestClient(createApp());
    const back = await signInWithProvider(browser, { accountId: "mallory", name: "Mallory", email: "shared@example.test", emailVerified: true });
    expect(back.href).toBe(callbackUrl);
    expect((await browser.get("/auth/session")).status).toBe(401);
    const pending = await browser.get("/auth/provider/signup");
    expect(pending.body.data.email).toEqual([{ email: "shared@example.test", verified: true, primary: true }]);
    const taken = await browser.post("/auth/provider/signup", { email: "shared@example.test" });
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual([
      { message: "An account already exists with this email address. Please sign in to that account first, then connect your Test ID (local) account.", code: "email_taken", param: "email" },
    ]);
    expect(await socialAccountRows()).toEqual([]);
  });

  it("should not let an unverified provider e-mail into a verified account", async () => {
    const owner = createIdentityTestClient(createApp(), { ip: "203.0.113.21" });
    await signUpWithPassword(owner, "linus@example.test", { verify: true });
    const browser = createIdentityTestClient(createApp());
    await signInWithProvider(browser, { accountId: "linus", preset: true });
    const session = await browser.get("/auth/session");
    expect(session.status).toBe(401);
    expect(session.body.data.flows.map((flow: { id: string }) => flow.id)).toContain("provider_signup");
  });

  it("should connect a provider whose verified e-mail matches a verified account, and sign into that account", async () => {
    const owner = createIdentityTestClient(createApp(), { ip: "203.0.113.22" });
    await signUpWithPassword(owner, "ada@example.test", { verify: true });
    const ownerId = (await owner.get("/auth/session")).body.data.user.id;
    const browser = createIdentityTestClient(createApp());
    await signInWithProvider(browser, { accountId: "ada", preset: true });
    const session = await browser.get("/auth/session");
    expect(session.status).toBe(200);
    expect(session.body.data.user.id).toBe(ownerId);
    expect(await socialAccountRows()).toEqual([{ user_id: ownerId, provider: "local", uid: "ada", display: "Ada Lovelace" }]);
  });

  it("should connect and disconnect a provider account for a signed-in user, and refuse one connected elsewhere", async () => {
    const browser = createIdentityTestClient(createApp());
    await signUpWithPassword(browser, "painter@example.test", { verify: true });
    const back = await signInWithProvider(browser, { accountId: "linus", preset: true }, { process: "connect", callback: "/account/providers" });
    expect(back.href).toBe(`${testOrigin}/account/providers`);
    const listed = await browser.get("/account/providers");
    expect(listed.body.data).toEqual([{ uid: "linus", display: "Linus Torvalds", provider: expect.objectContaining({ id: "local" }) }]);
    expect((await browser.get("/account/email")).body.data).toEqual([{ email: "painter@example.test", verified: true, primary: true }]);

    const unknown = await browser.delete("/account/providers", { provider: "local", account: "nobody" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ message: "Unknown account.", code: "account_not_found" }]);
    const disconnected = await browser.delete("/account/providers", { provider: "local", account: "linus" });
    expect(disconnected.status).toBe(200);
    expect(disconnected.body.data).toEqual([]);

    const other = createIdentityTestClient(createApp(), { ip: "203.0.113.23" });
    await signInWithProvider(other, { accountId: "ada", preset: true });
    const refused = await signInWithProvider(browser, { accountId: "ada", preset: true }, { process: "connect", callback: "/account/providers" });
    expect(Object.fromEntries(refused.searchParams)).toEqual({ error: "connected_other", error_process: "connect" });
    expect((await browser.get("/account/providers")).body.data).toEqual([]);
  });

  it("should keep the last way to sign in of a user without a password", async () => {
    const browser = createIdentityTestClient(createApp());
    await signInWithProvider(browser, { accountId: "ada", preset: true });
    const refused = await browser.delete("/account/providers", { provider: "local", account: "ada" });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ message: "Your account has no password set up.", code: "no_password" }]);
    expect(await socialAccountRows()).toHaveLength(1);
  });

  it("should keep the last of two third-party accounts of a user without a password when both are disconnected at once", async () => {
    const browser = createIdentityTestClient(createApp());
    await signInWithProvider(browser, { accountId: "ada", preset: true });
    await signInWithProvider(browser, { accountId: "linus", preset: true }, { process: "connect", callback: "/account/providers" });
    expect(await socialAccountRows()).toHaveLength(2);

    const answers = await Promise.all([browser.delete("/account/providers", { provider: "local", account: "ada" }), browser.delete("/account/providers", { provider: "local", account: "linus" })]);

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)?.body.errors).toEqual([{ message: "Your account has no password set up.", code: "no_password" }]);
    expect(await socialAccountRows()).toHaveLength(1);
  });

  it("should ask a user whose sign-in is old to confirm it before connecting or disconnecting", async () => {
    const browser = createIdentityTestClient(createApp());
    await signUpWithPassword(browser, "painter@example.test", { verify: true });
    now = new Date(now.getTime() + 301_000);
    const redirect = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "local", process: "connect", callback_url: "/account/providers" });
    expect(redirect.headers.get("location")).toBe(`${testOrigin}/account/providers?error=reauthentication_required&error_process=connect`);
    const disconnect = await browser.delete("/account/providers", { provider: "local", account: "ada" });
    expect(disconnect.status).toBe(401);
    expect(disconnect.body.data.flows).toContainEqual({ id: "reauthenticate" });
  });

  it("should send a refused consent back to the callback URL as cancelled", async () => {
    const browser = createIdentityTestClient(createApp());
    const back = await signInWithProvider(browser, { accountId: "ada", preset: true, consent: "deny" });
    expect(`${back.origin}${back.pathname}`).toBe(callbackUrl);
    expect(Object.fromEntries(back.searchParams)).toEqual({ error: "cancelled", error_process: "login" });
    expect((await browser.get("/auth/session")).status).toBe(401);
  });

  it("should send a forged, lost or replayed state to the error page", async () => {
    const browser = createIdentityTestClient(createApp());
    const forged = await browser.get("/accounts/local/login/callback/?code=abc&state=forged");
    expect(forged.status).toBe(302);
    expect(forged.headers.get("location")).toBe(`${testOrigin}/account/provider/error?error=unknown&error_process=login`);

    const redirect = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "local", process: "login", callback_url: callbackUrl });
    const back = await signInAtLocalProvider(redirect.headers.get("location") ?? "", { accountId: "ada", preset: true }, testOrigin);
    const stranger = createIdentityTestClient(createApp(), { ip: "203.0.113.30" });
    const lost = await stranger.get(`${back.pathname}${back.search}`);
    expect(lost.headers.get("location")).toBe(`${testOrigin}/account/provider/error?error=unknown&error_process=login`);
    expect((await browser.get(`${back.pathname}${back.search}`)).headers.get("location")).toBe(callbackUrl);
    const replayed = await browser.get(`${back.pathname}${back.search}`);
    expect(replayed.headers.get("location")).toBe(`${testOrigin}/account/provider/error?error=unknown&error_process=login`);
  });

  it("should refuse an unknown provider, a foreign callback URL and a missing CSRF token without leaving the site", async () => {
    const browser = createIdentityTestClient(createApp());
    const unknown = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "nope", process: "login", callback_url: callbackUrl });
    expect(unknown.headers.get("location")).toBe(`${testOrigin}/account/provider/error?error=unknown&error_process=login`);
    for (const foreign of ["https://evil.example/callback", "//evil.example/callback", "/\\evil.example"]) {
      const answer = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "local", process: "login", callback_url: foreign });
      expect(answer.headers.get("location")).toBe(`${testOrigin}/account/provider/error?error=unknown&error_process=login`);
    }
    const anonymousConnect = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "local", process: "connect", callback_url: "/account/providers" });
    expect(anonymousConnect.headers.get("location")).toBe(`${testOrigin}/account/providers?error=permission_denied&error_process=connect`);
    const withoutToken = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "local", process: "login", callback_url: callbackUrl }, { csrfToken: null });
    expect(withoutToken.status).toBe(403);
  });

  it("should send the browser back with error=unknown when the provider cannot be reached", async () => {
    const browser = createIdentityTestClient(
      createApp((configuration) => ({
        ...configuration,
        identity: { ...configuration.identity, socialProviders: [{ kind: "openid_connect", id: "offline", name: "Offline", issuer: "http://127.0.0.1:9", clientId: "x", clientSecret: "y" }] },
      })),
    );
    const answer = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "offline", process: "login", callback_url: callbackUrl });
    expect(answer.headers.get("location")).toBe(`${callbackUrl}?error=unknown&error_process=login`);
  });

  it("should judge the ID token's expiry by the server's clock, not the system clock", async () => {
    // The local provider's ID tokens live ten minutes; an hour later on the server's clock this one is stale.
    now = new Date(Date.now() + 3_600_000);
    const late = createIdentityTestClient(createApp());
    expect((await signInWithProvider(late, { accountId: "ada", preset: true })).href).toBe(`${callbackUrl}?error=unknown&error_process=login`);
    expect((await late.get("/auth/session")).status).toBe(401);
    now = new Date();
    const onTime = createIdentityTestClient(createApp());
    expect((await signInWithProvider(onTime, { accountId: "ada", preset: true })).href).toBe(callbackUrl);
  });

  it("should answer 409 to provider signup and 401 to the account list without a pending signup or a session", async () => {
    const browser = createIdentityTestClient(createApp());
    expect((await browser.get("/auth/provider/signup")).status).toBe(409);
    expect((await browser.post("/auth/provider/signup", { email: "a@example.test" })).status).toBe(409);
    expect((await browser.get("/account/providers")).status).toBe(401);
  });
});
