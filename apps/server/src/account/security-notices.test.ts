import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { addLocalOpenIdProvider, localOpenIdRedirectUriOf, startLocalOpenIdProvider, type LocalOpenIdProvider } from "../identity/providers/local-openid-provider.ts";
import { createIdentityTestClient, readLastCode, testOrigin, type IdentityTestClient } from "../identity/testing/identity-test-client.ts";
import { signInAtLocalProvider, type ProviderSignInChoice } from "../identity/testing/provider-user-agent.ts";
import { createIdentityTestApp } from "../identity/testing/test-app.ts";
import { totpCodeAt } from "../identity/testing/totp-code.ts";
import { listOutboxMails } from "../mail/outbox-mailer.ts";

const password = "correct horse battery";

let localProvider: LocalOpenIdProvider;
let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;

function createApp() {
  return createIdentityTestApp(testDatabase, { clock, configure: (configuration) => addLocalOpenIdProvider(configuration, localProvider) });
}

/** Signs in (or connects) at the local provider and follows the browser back to the site. */
async function goThroughProvider(browser: IdentityTestClient, choice: ProviderSignInChoice, process: "login" | "connect") {
  const redirect = await browser.postForm("/_allauth/browser/v1/auth/provider/redirect", { provider: "local", process, callback_url: "/account/providers" });
  expect(redirect.status).toBe(302);
  const back = await signInAtLocalProvider(redirect.headers.get("location") ?? "", choice, testOrigin);
  const answer = await browser.get(`${back.pathname}${back.search}`);
  expect(answer.headers.get("location")).toBe(`${testOrigin}/account/providers`);
}

async function signedUpWithPassword(browser: IdentityTestClient, email: string) {
  expect((await browser.post("/auth/signup", { email, password })).status).toBe(401);
  expect((await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, email) })).status).toBe(200);
  // A signup records no authentication; connecting a provider or adding a second factor needs a recent one.
  expect((await browser.post("/auth/reauthenticate", { password })).status).toBe(200);
}

async function eventTypesOf(browser: IdentityTestClient): Promise<string[]> {
  return (await browser.get("/api/account/security-events/")).body.events.map((event: { type: string }) => event.type);
}

beforeAll(async () => {
  localProvider = await startLocalOpenIdProvider({ port: 0, redirectUris: [localOpenIdRedirectUriOf(testOrigin)] });
});

afterAll(async () => {
  await localProvider.close();
});

describe.each(testDatabaseEngines)("given the notices allauth mails for third-party accounts, passwords and recovery codes, on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    // The provider's ID tokens carry the real time, which the site checks: the server's clock must be near it.
    now = new Date();
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should record and mail, in text and HTML, a third-party account connected and then disconnected", async () => {
    const browser = createIdentityTestClient(createApp());
    await signedUpWithPassword(browser, "painter@example.test");
    await goThroughProvider(browser, { accountId: "linus", preset: true }, "connect");

    const [connected] = await listOutboxMails(testDatabase.database, { to: "painter@example.test" });
    expect(connected?.subject).toBe("A third-party account was connected to your Atelier account");
    expect(connected?.text).toContain("An account at Test ID (local) was connected to your account");
    expect(connected?.html).toContain("An account at Test ID (local) was connected to your account");

    expect((await browser.delete("/account/providers", { provider: "local", account: "linus" })).status).toBe(200);
    const [disconnected] = await listOutboxMails(testDatabase.database, { to: "painter@example.test" });
    expect(disconnected?.subject).toBe("A third-party account was disconnected from your Atelier account");
    expect(disconnected?.text).toContain("An account at Test ID (local) was disconnected from your account");
    expect(disconnected?.html).toContain("An account at Test ID (local) was disconnected from your account");

    const listed = await browser.get("/api/account/security-events/");
    expect(listed.body.events.slice(0, 2)).toEqual([
      expect.objectContaining({ type: "third_party_account_disconnected", detail: "Test ID (local)" }),
      expect.objectContaining({ type: "third_party_account_connected", detail: "Test ID (local)" }),
    ]);
  });

  it("should record and mail a third-party account that a sign-in connects to the account owning its verified address", async () => {
    const owner = createIdentityTestClient(createApp());
    await signedUpWithPassword(owner, "ada@example.test");
    const otherBrowser = createIdentityTestClient(createApp(), { ip: "203.0.113.40" });
    await goThroughProvider(otherBrowser, { accountId: "ada", preset: true }, "login");

    const subjects = (await listOutboxMails(testDatabase.database, { to: "ada@example.test" })).map((mail) => mail.subject);
    expect(subjects).toContain("A third-party account was connected to your Atelier account");
    expect(await eventTypesOf(owner)).toContain("third_party_account_connected");
  });

  it("should mail a first password as set, not as changed", async () => {
    const browser = createIdentityTestClient(createApp());
    await goThroughProvider(browser, { accountId: "ada", preset: true }, "login");
    expect((await browser.post("/account/password/change", { new_password: "a brand new password" })).status).toBe(200);

    const [notice] = await listOutboxMails(testDatabase.database, { to: "ada@example.test" });
    expect(notice?.subject).toBe("A password was set for your Atelier account");
    expect(notice?.html).toContain("A password was just set for your account");
    expect((await eventTypesOf(browser))[0]).toBe("password_set");

    expect((await browser.post("/account/password/change", { current_password: "a brand new password", new_password: "another new password" })).status).toBe(200);
    const [changed] = await listOutboxMails(testDatabase.database, { to: "ada@example.test" });
    expect(changed?.subject).toBe("Your Atelier password was changed");
  });
});

describe.each(testDatabaseEngines)("given a user who asks for new recovery codes, on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-01T10:00:00.000Z");
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should record and mail the new codes, but not the codes made with the first second factor", async () => {
    const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
    await signedUpWithPassword(browser, "anna@example.ch");
    const setup = await browser.get("/account/authenticators/totp");
    const secret = setup.body.meta.secret as string;
    const code = totpCodeAt(secret, now);
    expect((await browser.post("/account/authenticators/totp", { code })).status).toBe(200);
    const subjectsAfterActivation = (await listOutboxMails(testDatabase.database, { to: "anna@example.ch" })).map((mail) => mail.subject);
    expect(subjectsAfterActivation).not.toContain("New recovery codes for your Atelier account");
    expect(await eventTypesOf(browser)).not.toContain("recovery_codes_generated");

    expect((await browser.post("/account/authenticators/recovery-codes")).status).toBe(200);
    const [notice] = await listOutboxMails(testDatabase.database, { to: "anna@example.ch" });
    expect(notice?.subject).toBe("New recovery codes for your Atelier account");
    expect(notice?.text).toContain("the earlier ones no longer work");
    expect(notice?.html).toContain("the earlier ones no longer work");
    expect((await eventTypesOf(browser))[0]).toBe("recovery_codes_generated");
  });
});
