import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { listOutboxMails } from "../mail/outbox-mailer.ts";
import { createIdentityTestClient, readLastCode, testOrigin } from "./testing/identity-test-client.ts";
import { createSoftwareAuthenticator } from "./testing/software-authenticator.ts";
import { totpCodeAt } from "./testing/totp-code.ts";
import { createIdentityTestApp } from "./testing/test-app.ts";

// The same request sent several times at once, as a double click or a script sends it: each is answered as the API
// answers it one at a time, and what it writes is written once.
const password = "correct horse battery";
let testDatabase: TestDatabase;
const clock = () => new Date("2026-03-01T10:00:00.000Z");

describe.each(testDatabaseEngines)("given sign-ups on %s sent at once with one new address", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  async function signUpAtOnce(app: ReturnType<typeof createIdentityTestApp>, count: number) {
    const browsers = Array.from({ length: count }, (_, index) => createIdentityTestClient(app, { ip: `198.51.100.${20 + index}` }));
    // Each browser has its CSRF cookie first, so that the sign-ups themselves are what runs at once.
    await Promise.all(browsers.map((browser) => browser.get("/config")));
    return Promise.all(browsers.map((browser) => browser.post("/auth/signup", { email: "double-click@example.ch", password })));
  }

  async function accountsWithTheAddress() {
    return testDatabase.database.selectFrom("identity_email_address").select("user_id").where("email", "=", "double-click@example.ch").execute();
  }

  it("should make one account and answer every sign-up alike where verification is mandatory", async () => {
    const answers = await signUpAtOnce(createIdentityTestApp(testDatabase, { clock }), 6);

    expect(await accountsWithTheAddress()).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([401]));
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body)))).toHaveProperty("size", 1);
    const mails = await listOutboxMails(testDatabase.database, { to: "double-click@example.ch" });
    expect(mails.filter((mail) => mail.subject === "You already have an Atelier account").length).toBeLessThanOrEqual(1);
  });

  it("should make one account and answer the others email_taken where verification is off", async () => {
    const answers = await signUpAtOnce(createIdentityTestApp(testDatabase, { clock, environment: { ACCOUNT_EMAIL_VERIFICATION: "none" } }), 6);

    expect(await accountsWithTheAddress()).toHaveLength(1);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    for (const answer of answers.filter((candidate) => candidate.status === 400)) {
      expect(answer.body).toMatchObject({ status: 400, errors: [{ code: "email_taken", param: "email" }] });
    }
  });
});

describe.each(testDatabaseEngines)("given one address added to an account on %s by requests sent at once", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should add it once, answer the others duplicate_email and send one verification mail", async () => {
    const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock, environment: { ACCOUNT_EMAIL_VERIFICATION: "none" } }), { ip: "198.51.100.9" });
    expect((await browser.post("/auth/signup", { email: "anna@example.ch", password })).status).toBe(200);
    expect((await browser.post("/auth/reauthenticate", { password })).status).toBe(200);

    const answers = await Promise.all(Array.from({ length: 4 }, () => browser.post("/account/email", { email: "anna.second@example.ch" })));

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400]);
    for (const answer of answers.filter((candidate) => candidate.status === 400)) {
      expect(answer.body).toMatchObject({ status: 400, errors: [{ code: "duplicate_email", param: "email" }] });
    }
    const addresses = await testDatabase.database.selectFrom("identity_email_address").select("email").orderBy("email").execute();
    expect(addresses).toEqual([{ email: "anna.second@example.ch" }, { email: "anna@example.ch" }]);
    expect(await listOutboxMails(testDatabase.database, { to: "anna.second@example.ch" })).toHaveLength(1);
  });
});

/** A user signed up (verification mandatory), their address verified and their sign-in recent, from `ip`. */
async function signedInWithVerifiedAddress(app: ReturnType<typeof createIdentityTestApp>, ip: string) {
  const user = createIdentityTestClient(app, { ip });
  expect((await user.post("/auth/signup", { email: "anna@example.ch", password })).status).toBe(401);
  expect((await user.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@example.ch") })).status).toBe(200);
  expect((await user.post("/auth/reauthenticate", { password })).status).toBe(200);
  return user;
}

describe.each(testDatabaseEngines)("given second factors added on %s by requests sent at once", (engine) => {
  let app: ReturnType<typeof createIdentityTestApp>;
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    app = createIdentityTestApp(testDatabase, { clock });
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });


  async function authenticatorTypes() {
    const rows = await testDatabase.database.selectFrom("identity_authenticator").select("type").execute();
    return rows.map((row) => row.type).sort();
  }

  it("should compare no more second-factor guesses sent at once than the failed sign-in limit allows", async () => {
    const user = await signedInWithVerifiedAddress(app, "198.51.100.40");
    const secret = (await user.get("/account/authenticators/totp")).body.meta.secret as string;
    expect((await user.post("/account/authenticators/totp", { code: totpCodeAt(secret, clock()) })).status).toBe(200);
    const guesser = createIdentityTestClient(app, { ip: "198.51.100.41" });
    expect((await guesser.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(401);
    const rightCode = totpCodeAt(secret, clock());
    const wrongCodes = Array.from({ length: 20 }, (_, index) => String((Number(rightCode) + 1 + index) % 1_000_000).padStart(6, "0"));

    const answers = await Promise.all(wrongCodes.map((code) => guesser.post("/auth/2fa/authenticate", { code })));

    const codes = answers.map((answer) => answer.body.errors?.[0]?.code);
    expect(codes.filter((code) => code === "incorrect_code")).toHaveLength(5);
    expect(codes.filter((code) => code === "too_many_login_attempts")).toHaveLength(15);
  });

  it("should activate TOTP once, answer the others 409 and make one set of recovery codes", async () => {
    const user = await signedInWithVerifiedAddress(app, "198.51.100.40");
    const secret = (await user.get("/account/authenticators/totp")).body.meta.secret as string;
    const code = totpCodeAt(secret, clock());

    const answers = await Promise.all(Array.from({ length: 3 }, () => user.post("/account/authenticators/totp", { code })));

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(await authenticatorTypes()).toEqual(["recovery_codes", "totp"]);
    const regenerated = await Promise.all(Array.from({ length: 3 }, () => user.post("/account/authenticators/recovery-codes", {})));
    expect(regenerated.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await authenticatorTypes()).toEqual(["recovery_codes", "totp"]);
  });

  it("should keep the recovery codes while a factor is left, when TOTP is removed as a security key is added", async () => {
    const user = await signedInWithVerifiedAddress(app, "198.51.100.40");
    const secret = (await user.get("/account/authenticators/totp")).body.meta.secret as string;
    const code = totpCodeAt(secret, clock());
    expect((await user.post("/account/authenticators/totp", { code })).status).toBe(200);
    const creation = await user.get("/account/authenticators/webauthn");
    const credential = createSoftwareAuthenticator().register(creation.body.data.creation_options.publicKey, { origin: testOrigin });

    const [removed, added] = await Promise.all([user.delete("/account/authenticators/totp"), user.post("/account/authenticators/webauthn", { name: "Key", credential })]);

    expect([removed.status, added.status]).toEqual([200, 200]);
    expect(await authenticatorTypes()).toEqual(["recovery_codes", "webauthn"]);
  });

  it("should register a security key's credential once and refuse it again", async () => {
    const user = await signedInWithVerifiedAddress(app, "198.51.100.40");
    const creation = await user.get("/account/authenticators/webauthn");
    const credential = createSoftwareAuthenticator().register(creation.body.data.creation_options.publicKey, { origin: testOrigin });

    const answers = await Promise.all(Array.from({ length: 3 }, () => user.post("/account/authenticators/webauthn", { name: "Key", credential })));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
      expect(answer.body).toMatchObject({ status: 400, errors: [{ code: "incorrect_code", param: "credential" }] });
    }
    expect(await authenticatorTypes()).toEqual(["recovery_codes", "webauthn"]);
  });
});

describe.each(testDatabaseEngines)("given a sign-in code guessed on %s by wrong codes sent at once", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should compare no more guesses than the attempts allow, and refuse the right code after them", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const owner = createIdentityTestClient(app, { ip: "198.51.100.60" });
    expect((await owner.post("/auth/signup", { email: "anna@example.ch", password })).status).toBe(401);
    expect((await owner.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@example.ch") })).status).toBe(200);
    const guesser = createIdentityTestClient(app, { ip: "198.51.100.61" });
    expect((await guesser.post("/auth/code/request", { email: "anna@example.ch" })).status).toBe(401);
    const code = await readLastCode(testDatabase.database, "anna@example.ch");
    const wrongCodes = Array.from({ length: 12 }, (_, index) => `${String.fromCharCode(65 + index).repeat(4)}-WXYZ`).filter((candidate) => candidate !== code);

    const answers = await Promise.all(wrongCodes.map((wrongCode) => guesser.post("/auth/code/confirm", { code: wrongCode })));

    const refusedAsIncorrect = answers.filter((answer) => answer.status === 400 && answer.body.errors?.[0]?.code === "incorrect_code");
    expect(refusedAsIncorrect).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(wrongCodes.length - 3);
    expect((await guesser.post("/auth/code/confirm", { code })).status).toBe(409);
    expect((await guesser.get("/auth/session")).status).toBe(401);
  });
});

describe.each(testDatabaseEngines)("given a user's addresses changed on %s by requests sent at once", (engine) => {
  let app: ReturnType<typeof createIdentityTestApp>;
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    app = createIdentityTestApp(testDatabase, { clock });
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  async function signedInWithThreeVerifiedAddresses() {
    const user = await signedInWithVerifiedAddress(app, "198.51.100.50");
    for (const email of ["anna.b@example.ch", "anna.c@example.ch"]) {
      expect((await user.post("/account/email", { email })).status).toBe(200);
      expect((await user.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, email) })).status).toBe(200);
    }
    return user;
  }

  async function primaryAddresses() {
    const rows = await testDatabase.database.selectFrom("identity_email_address").select("email").where("is_primary", "=", 1).execute();
    return rows.map((row) => row.email);
  }

  it("should keep exactly one primary address when an address is made primary and removed at once, in either order", async () => {
    const user = await signedInWithThreeVerifiedAddresses();
    let kept = ["anna@example.ch", "anna.b@example.ch", "anna.c@example.ch"];
    let primary = "anna@example.ch";

    for (const [email, sentFirst] of [["anna.b@example.ch", "make primary"], ["anna.c@example.ch", "remove"]] as const) {
      const makePrimary = () => user.patch("/account/email", { email, primary: true });
      const remove = () => user.delete("/account/email", { email });
      const [madePrimary, removed] = sentFirst === "make primary" ? await Promise.all([makePrimary(), remove()]) : (await Promise.all([remove(), makePrimary()])).reverse();

      // Answered as one after the other would be, whichever ran first: made primary and then not removable, or removed
      // and then unknown.
      const outcome = madePrimary?.status === 200 ? ["primary", removed?.body.errors?.[0]?.code] : ["removed", removed?.status, madePrimary?.body.errors?.[0]?.code];
      expect([["primary", "cannot_remove_primary_email"], ["removed", 200, "unknown_email"]]).toContainEqual(outcome);
      if (outcome[0] === "primary") primary = email;
      else kept = kept.filter((address) => address !== email);
      const primaries = await primaryAddresses();
      expect(primaries).toEqual([primary]);
      const listed = (await user.get("/account/email")).body.data as { email: string; primary: boolean }[];
      expect(listed.filter((address) => address.primary).map((address) => address.email)).toEqual(primaries);
      expect(listed.map((address) => address.email).sort()).toEqual([...kept].sort());
    }
  });
});
