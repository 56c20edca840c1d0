import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../../database/test-databases.ts";
import { createIdentityTestClient, readLastCode, testOrigin, type IdentityTestClient } from "../testing/identity-test-client.ts";
import { createSoftwareAuthenticator } from "../testing/software-authenticator.ts";
import { totpCodeAt } from "../testing/totp-code.ts";
import { createIdentityTestApp } from "../testing/test-app.ts";

const password = "correct horse battery";
const initialFlows = [{ id: "login" }, { id: "login_by_code" }, { id: "signup" }, { id: "mfa_login_webauthn" }];

let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;
let ipCounter = 0;

function advance(secondsToAdd: number) {
  now = new Date(now.getTime() + secondsToAdd * 1_000);
}

function totpCode(secret: string, at: Date = now): string {
  return totpCodeAt(secret, at);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any server variables
type App = ReturnType<typeof createIdentityTestApp> & any;

function newClient(app: App, client: "browser" | "app" = "browser"): IdentityTestClient {
  ipCounter += 1;
  return createIdentityTestClient(app, { client, ip: `198.51.100.${ipCounter % 250}` });
}

/** Signs up, verifies the address and reauthenticates with the password, so that sensitive MFA actions are allowed. */
async function signedIn(app: App, email: string, client: "browser" | "app" = "browser"): Promise<IdentityTestClient> {
  const user = newClient(app, client);
  expect((await user.post("/auth/signup", { email, password })).status).toBe(401);
  expect((await user.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, email) })).status).toBe(200);
  expect((await user.post("/auth/reauthenticate", { password })).status).toBe(200);
  return user;
}

async function activateTotp(user: IdentityTestClient): Promise<string> {
  const setup = await user.get("/account/authenticators/totp");
  expect(setup.status).toBe(404);
  const secret = setup.body.meta.secret as string;
  const activated = await user.post("/account/authenticators/totp", { code: totpCode(secret) });
  expect(activated.status).toBe(200);
  return secret;
}

/** Anna with TOTP, signed out and in again with her password: the login stopped at the second factor. */
async function signedInUpToTheSecondFactor(app: App) {
  const user = await signedIn(app, "anna@example.ch");
  const secret = await activateTotp(user);
  await user.delete("/auth/session");
  const login = await user.post("/auth/login", { email: "anna@example.ch", password });
  return { user, secret, login };
}

async function addKey(user: IdentityTestClient, device: ReturnType<typeof createSoftwareAuthenticator>, options: { passwordless?: boolean; name?: string } = {}) {
  const creation = await user.get(`/account/authenticators/webauthn${options.passwordless ? "?passwordless" : ""}`);
  expect(creation.status).toBe(200);
  const credential = device.register(creation.body.data.creation_options.publicKey, { origin: testOrigin });
  return user.post("/account/authenticators/webauthn", { name: options.name ?? "Key", credential });
}

describe.each(testDatabaseEngines)("given the identity service with second factors on %s", (engine) => {
  let app: App;
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-01T10:00:00.000Z");
    app = createIdentityTestApp(testDatabase, { clock });
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  describe("TOTP", () => {
    it("should offer a secret, refuse a wrong code, activate with the right one and list totp and recovery codes", async () => {
      const user = await signedIn(app, "anna@example.ch");
      const setup = await user.get("/account/authenticators/totp");
      expect(setup.body).toEqual({ status: 404, meta: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/), totp_url: expect.stringMatching(/^otpauth:\/\/totp\/Atelier:anna%40example\.ch\?/) } });
      expect(setup.body.meta.totp_url).toContain(`secret=${setup.body.meta.secret}`);
      expect(setup.body.meta.totp_url).toContain("issuer=Atelier");
      const secret = setup.body.meta.secret as string;
      const wrong = await user.post("/account/authenticators/totp", { code: "000000" === totpCode(secret) ? "111111" : "000000" });
      expect(wrong.body).toEqual({ status: 400, errors: [{ message: "Incorrect code.", code: "incorrect_code", param: "code" }] });
      const activated = await user.post("/account/authenticators/totp", { code: totpCode(secret) });
      expect(activated.body).toEqual({ status: 200, data: { type: "totp", created_at: now.getTime() / 1_000, last_used_at: null } });
      expect((await user.get("/account/authenticators/totp")).body).toEqual(activated.body);
      const list = await user.get("/account/authenticators");
      expect(list.body).toEqual({
        status: 200,
        data: [
          { type: "totp", created_at: now.getTime() / 1_000, last_used_at: null },
          { type: "recovery_codes", created_at: now.getTime() / 1_000, last_used_at: null, total_code_count: 10, unused_code_count: 10 },
        ],
      });
    });

    it("should answer 409 unverified_email while an address is unverified, and 401 to anonymous callers", async () => {
      const user = await signedIn(app, "anna@example.ch");
      expect((await user.post("/account/email", { email: "second@example.ch" })).status).toBe(200);
      expect((await user.get("/account/authenticators/totp")).body).toEqual({
        status: 409,
        errors: [{ message: "You cannot activate two-factor authentication until you have verified your email address.", code: "unverified_email" }],
      });
      expect((await user.post("/account/authenticators/totp", { code: "123456" })).body.errors).toEqual([
        { message: "You cannot activate two-factor authentication until you have verified your email address.", code: "unverified_email", param: "code" },
      ]);
      const anonymous = newClient(app);
      expect((await anonymous.get("/account/authenticators")).body).toEqual({ status: 401, data: { flows: initialFlows }, meta: { is_authenticated: false } });
      expect((await anonymous.get("/account/authenticators/totp")).status).toBe(401);
    });

    it("should stop a password login at mfa_authenticate, refuse a wrong code and sign in with the next period's code", async () => {
      const { user, secret, login } = await signedInUpToTheSecondFactor(app);
      expect(login.body).toEqual({ status: 401, data: { flows: [...initialFlows, { id: "mfa_authenticate", is_pending: true, types: ["recovery_codes", "totp"] }] }, meta: { is_authenticated: false } });
      expect((await user.get("/auth/session")).body).toEqual(login.body);
      expect((await user.get("/account/authenticators")).status).toBe(401);
      expect((await user.post("/auth/2fa/authenticate", { code: "12345" })).body).toEqual({ status: 400, errors: [{ message: "Incorrect code.", code: "incorrect_code", param: "code" }] });
      // The activation code is spent for its period: it cannot also sign in.
      expect((await user.post("/auth/2fa/authenticate", { code: totpCode(secret) })).status).toBe(400);
      advance(30);
      const done = await user.post("/auth/2fa/authenticate", { code: totpCode(secret) });
      expect(done.status).toBe(200);
      expect(done.body.data.methods).toEqual([
        { method: "password", at: expect.any(Number), email: "anna@example.ch" },
        { method: "mfa", at: now.getTime() / 1_000, id: expect.any(Number), type: "totp" },
      ]);
      expect((await user.post("/auth/2fa/authenticate", { code: totpCode(secret) })).status).toBe(401);
    });

    it("should take a TOTP code sent as a JSON number, as allauth's form reads it (its digits)", async () => {
      const { user, secret } = await signedInUpToTheSecondFactor(app);
      advance(30);
      // A number has no leading zero: wait for a period whose code has none.
      while (totpCode(secret).startsWith("0")) advance(30);
      const done = await user.post("/auth/2fa/authenticate", { code: Number(totpCode(secret)) });
      expect(done.status).toBe(200);
    });

    it("should ask for the second factor after a login by code too, and record code then mfa", async () => {
      const user = await signedIn(app, "anna@example.ch");
      const secret = await activateTotp(user);
      await user.delete("/auth/session");
      await user.post("/auth/code/request", { email: "anna@example.ch" });
      const confirmed = await user.post("/auth/code/confirm", { code: await readLastCode(testDatabase.database, "anna@example.ch") });
      expect(confirmed.body.data.flows).toEqual([{ id: "login" }, { id: "login_by_code" }, { id: "signup" }, { id: "mfa_login_webauthn" }, { id: "mfa_authenticate", is_pending: true, types: ["recovery_codes", "totp"] }]);
      advance(30);
      const done = await user.post("/auth/2fa/authenticate", { code: totpCode(secret) });
      expect(done.body.data.methods.map((record: { method: string }) => record.method)).toEqual(["code", "mfa"]);
    });

    it("should refuse a TOTP code replayed within its period, from another session too", async () => {
      const user = await signedIn(app, "anna@example.ch");
      const secret = await activateTotp(user);
      advance(60);
      const first = newClient(app);
      const second = newClient(app);
      for (const client of [first, second]) {
        expect((await client.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(401);
      }
      const code = totpCode(secret);
      expect((await first.post("/auth/2fa/authenticate", { code })).status).toBe(200);
      expect((await second.post("/auth/2fa/authenticate", { code })).body.errors).toEqual([{ message: "Incorrect code.", code: "incorrect_code", param: "code" }]);
      advance(30);
      expect((await second.post("/auth/2fa/authenticate", { code: totpCode(secret) })).status).toBe(200);
    });

    it("should answer 2fa/authenticate without a pending stage with 401 and is_authenticated null", async () => {
      const anonymous = newClient(app);
      expect((await anonymous.post("/auth/2fa/authenticate", { code: "123456" })).body).toEqual({ status: 401, data: { flows: initialFlows }, meta: { is_authenticated: null } });
    });

    it("should drop the pending second factor on logout", async () => {
      const user = await signedIn(app, "anna@example.ch");
      await activateTotp(user);
      await user.delete("/auth/session");
      expect((await user.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(401);
      expect((await user.delete("/auth/session")).body).toEqual({ status: 401, data: { flows: initialFlows }, meta: { is_authenticated: false } });
      expect((await user.get("/auth/session")).body.data.flows).toEqual(initialFlows);
    });

    it("should count wrong codes toward login_failed: the sixth try within five minutes is too_many_login_attempts", async () => {
      const { user, secret } = await signedInUpToTheSecondFactor(app);
      advance(30);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await user.post("/auth/2fa/authenticate", { code: "99999999" })).body.errors[0].code).toBe("incorrect_code");
      }
      expect((await user.post("/auth/2fa/authenticate", { code: totpCode(secret) })).body).toEqual({
        status: 400,
        errors: [{ message: "Too many failed login attempts. Try again later.", code: "too_many_login_attempts", param: "code" }],
      });
    });

    it("should ask for reauthentication before deactivating, accept 2fa/reauthenticate, then remove TOTP and its recovery codes", async () => {
      const user = await signedIn(app, "anna@example.ch");
      const secret = await activateTotp(user);
      advance(301);
      const stale = await user.delete("/account/authenticators/totp");
      expect(stale.status).toBe(401);
      expect(stale.body.meta).toEqual({ is_authenticated: true });
      expect(stale.body.data.flows).toEqual([{ id: "reauthenticate" }, { id: "mfa_reauthenticate", types: ["recovery_codes", "totp"] }]);
      expect((await user.post("/auth/2fa/reauthenticate", { code: "000000" === totpCode(secret) ? "111111" : "000000" })).body.errors[0].code).toBe("incorrect_code");
      const reauthenticated = await user.post("/auth/2fa/reauthenticate", { code: totpCode(secret) });
      expect(reauthenticated.status).toBe(200);
      expect(reauthenticated.body.data.methods.at(-1)).toEqual({ method: "mfa", at: now.getTime() / 1_000, id: expect.any(Number), type: "totp" });
      expect((await user.delete("/account/authenticators/totp")).body).toEqual({ status: 200 });
      expect((await user.get("/account/authenticators")).body).toEqual({ status: 200, data: [] });
      expect((await user.get("/account/authenticators/recovery-codes")).body).toEqual({ status: 404 });
    });

    it("should need a recent authentication to activate right after signup (signup records no method)", async () => {
      const user = newClient(app);
      await user.post("/auth/signup", { email: "anna@example.ch", password });
      await user.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@example.ch") });
      advance(1);
      const setup = await user.get("/account/authenticators/totp");
      const refused = await user.post("/account/authenticators/totp", { code: totpCode(setup.body.meta.secret) });
      expect(refused.status).toBe(401);
      expect(refused.body.data.flows).toEqual([{ id: "reauthenticate" }]);
    });
  });

  describe("recovery codes", () => {
    it("should show the ten codes on every visit (allauth's default), sign in with one of them once, and regenerate them", async () => {
      const user = await signedIn(app, "anna@example.ch");
      await activateTotp(user);
      const shown = await user.get("/account/authenticators/recovery-codes");
      expect(shown.body).toEqual({
        status: 200,
        data: { type: "recovery_codes", created_at: now.getTime() / 1_000, last_used_at: null, total_code_count: 10, unused_code_count: 10, unused_codes: expect.any(Array) },
      });
      const codes = shown.body.data.unused_codes as string[];
      expect(new Set(codes).size).toBe(10);
      expect(codes.every((code) => /^\d{8}$/.test(code))).toBe(true);
      // MFA_RECOVERY_CODES_SHOW_ONCE is false by default, as in allauth: the codes stay readable (encrypted at rest).
      expect((await user.get("/account/authenticators/recovery-codes")).body.data.unused_codes).toEqual(codes);
      const stored = await testDatabase.database.selectFrom("identity_authenticator").select("data_json").where("type", "=", "recovery_codes").executeTakeFirstOrThrow();
      expect(codes.some((code) => stored.data_json.includes(code))).toBe(false);

      await user.delete("/auth/session");
      await user.post("/auth/login", { email: "anna@example.ch", password });
      const signedInWithCode = await user.post("/auth/2fa/authenticate", { code: codes[0] });
      expect(signedInWithCode.status).toBe(200);
      expect(signedInWithCode.body.data.methods.at(-1)).toEqual({ method: "mfa", at: expect.any(Number), id: expect.any(Number), type: "recovery_codes" });
      await user.delete("/auth/session");
      await user.post("/auth/login", { email: "anna@example.ch", password });
      expect((await user.post("/auth/2fa/authenticate", { code: codes[0] })).body.errors[0].code).toBe("incorrect_code");
      expect((await user.post("/auth/2fa/authenticate", { code: codes[1] })).status).toBe(200);
      expect((await user.get("/account/authenticators")).body.data[1]).toMatchObject({ type: "recovery_codes", unused_code_count: 8, last_used_at: expect.any(Number) });
      expect((await user.get("/account/authenticators/recovery-codes")).body.data.unused_codes).toEqual(codes.slice(2));

      const regenerated = await user.post("/account/authenticators/recovery-codes");
      expect(regenerated.body.data).toMatchObject({ type: "recovery_codes", total_code_count: 10, unused_code_count: 10 });
      expect(regenerated.body.data.unused_codes).toHaveLength(10);
      await user.delete("/auth/session");
      await user.post("/auth/login", { email: "anna@example.ch", password });
      expect((await user.post("/auth/2fa/authenticate", { code: codes[2] })).body.errors[0].code).toBe("incorrect_code");
      expect((await user.post("/auth/2fa/authenticate", { code: regenerated.body.data.unused_codes[0] })).status).toBe(200);
    });

    it("should show the codes only once with MFA_RECOVERY_CODES_SHOW_ONCE=true, and keep only their HMACs after that", async () => {
      const showOnce = createIdentityTestApp(testDatabase, { clock, environment: { MFA_RECOVERY_CODES_SHOW_ONCE: "true" } });
      const user = await signedIn(showOnce, "anna@example.ch");
      await activateTotp(user);
      expect((await user.get("/account/authenticators/recovery-codes")).body.data.unused_codes).toHaveLength(10);
      expect((await user.get("/account/authenticators/recovery-codes")).body.data).not.toHaveProperty("unused_codes");
      const regenerated = await user.post("/account/authenticators/recovery-codes");
      expect(regenerated.body.data.unused_codes).toHaveLength(10);
      expect((await user.get("/account/authenticators/recovery-codes")).body.data).not.toHaveProperty("unused_codes");
    });

    it("should need reauthentication to view codes, accept a recovery code for it, and refuse to generate without a factor", async () => {
      const user = await signedIn(app, "anna@example.ch");
      expect((await user.post("/account/authenticators/recovery-codes")).body).toEqual({
        status: 400,
        errors: [{ message: "You cannot generate recovery codes without having two-factor authentication enabled.", code: "cannot_generate_recovery_codes" }],
      });
      expect((await user.get("/account/authenticators/recovery-codes")).body).toEqual({ status: 404 });
      await activateTotp(user);
      const codes = (await user.get("/account/authenticators/recovery-codes")).body.data.unused_codes as string[];
      advance(301);
      const stale = await user.get("/account/authenticators/recovery-codes");
      expect(stale.status).toBe(401);
      expect(stale.body.meta.is_authenticated).toBe(true);
      expect((await user.post("/auth/2fa/reauthenticate", { code: codes[3] })).status).toBe(200);
      expect((await user.get("/account/authenticators/recovery-codes")).body.data.unused_code_count).toBe(9);
    });
  });

  describe("WebAuthn", () => {
    it("should add a security key (recovery codes generated), use it as second factor, rename and delete it", async () => {
      const user = await signedIn(app, "anna@example.ch");
      const device = createSoftwareAuthenticator();
      const creation = await user.get("/account/authenticators/webauthn");
      expect(creation.body.data.creation_options.publicKey).toMatchObject({ rp: { name: "Atelier", id: "localhost" }, attestation: "none", challenge: expect.any(String) });
      const credential = device.register(creation.body.data.creation_options.publicKey, { origin: testOrigin });
      const added = await user.post("/account/authenticators/webauthn", { name: "Blue key", credential });
      expect(added.body).toEqual({ status: 200, data: { type: "webauthn", created_at: now.getTime() / 1_000, last_used_at: null, id: expect.any(Number), name: "Blue key" }, meta: { recovery_codes_generated: true } });
      const id = added.body.data.id as number;

      await user.delete("/auth/session");
      const login = await user.post("/auth/login", { email: "anna@example.ch", password });
      expect(login.body.data.flows.at(-1)).toEqual({ id: "mfa_authenticate", is_pending: true, types: ["recovery_codes", "webauthn"] });
      const request = await user.get("/auth/webauthn/authenticate");
      expect(request.body.data.request_options.publicKey).toMatchObject({ rpId: "localhost", allowCredentials: [{ id: credential.id, type: "public-key" }] });
      const done = await user.post("/auth/webauthn/authenticate", { credential: device.assert(request.body.data.request_options.publicKey, { origin: testOrigin }) });
      expect(done.status).toBe(200);
      expect(done.body.data.methods).toEqual([
        { method: "password", at: expect.any(Number), email: "anna@example.ch" },
        { method: "mfa", at: expect.any(Number), id, type: "webauthn" },
      ]);

      expect((await user.put("/account/authenticators/webauthn", { id, name: "Red key" })).body).toEqual({ status: 200, data: expect.objectContaining({ id, name: "Red key", type: "webauthn" }) });
      expect((await user.put("/account/authenticators/webauthn", { id: id + 1, name: "x" })).body.errors).toEqual([{ message: "Select a valid choice.", code: "invalid_choice", param: "id" }]);
      expect((await user.delete("/account/authenticators/webauthn", { authenticators: [id + 1] })).body.errors[0].code).toBe("invalid_choice");
      advance(301);
      expect((await user.delete("/account/authenticators/webauthn", { authenticators: [id] })).status).toBe(401);
      const options = await user.get("/auth/webauthn/reauthenticate");
      const reauthenticated = await user.post("/auth/webauthn/reauthenticate", { credential: device.assert(options.body.data.request_options.publicKey, { origin: testOrigin }) });
      expect(reauthenticated.body.data.methods.at(-1)).toEqual({ method: "mfa", at: now.getTime() / 1_000, id, type: "webauthn", reauthenticated: true });
      expect((await user.delete("/account/authenticators/webauthn", { authenticators: [id] })).body).toEqual({ status: 200 });
      expect((await user.get("/account/authenticators")).body).toEqual({ status: 200, data: [] });
    });

    it("should sign in with a passkey without a second stage and record passwordless", async () => {
      const user = await signedIn(app, "anna@example.ch");
      const device = createSoftwareAuthenticator();
      const added = await addKey(user, device, { passwordless: true, name: "Laptop" });
      expect(added.body.data).toMatchObject({ name: "Laptop", is_passwordless: true });
      await user.delete("/auth/session");
      const options = await user.get("/auth/webauthn/login");
      expect(options.body).toEqual({ status: 200, data: { request_options: { publicKey: expect.objectContaining({ rpId: "localhost", allowCredentials: [], userVerification: "required" }) } } });
      const login = await user.post("/auth/webauthn/login", { credential: device.assert(options.body.data.request_options.publicKey, { origin: testOrigin }) });
      expect(login.body).toEqual({
        status: 200,
        data: { user: expect.objectContaining({ email: "anna@example.ch" }), methods: [{ method: "mfa", at: now.getTime() / 1_000, id: added.body.data.id, type: "webauthn", passwordless: true }] },
        meta: { is_authenticated: true },
      });
    });

    it("should sign up with a passkey: verify_email, then mfa_signup_webauthn, then signed in with no password", async () => {
      const user = newClient(app);
      const device = createSoftwareAuthenticator();
      expect((await user.get("/auth/webauthn/signup")).status).toBe(409);
      const started = await user.post("/auth/webauthn/signup", { email: "bo@example.ch" });
      expect(started.body).toEqual({ status: 401, data: { flows: [...initialFlows, { id: "verify_email", is_pending: true }] }, meta: { is_authenticated: false } });
      const verified = await user.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "bo@example.ch") });
      expect(verified.body).toEqual({ status: 401, data: { flows: [...initialFlows, { id: "mfa_signup_webauthn", is_pending: true }] }, meta: { is_authenticated: false } });
      const creation = await user.get("/auth/webauthn/signup");
      expect(creation.body.data.creation_options.publicKey.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
      const credential = device.register(creation.body.data.creation_options.publicKey, { origin: testOrigin });
      const done = await user.put("/auth/webauthn/signup", { name: "Phone", credential });
      expect(done.body).toEqual({ status: 200, data: { user: expect.objectContaining({ email: "bo@example.ch", has_usable_password: false }), methods: [] }, meta: { is_authenticated: true } });
      await user.delete("/auth/session");
      const options = await user.get("/auth/webauthn/login");
      expect((await user.post("/auth/webauthn/login", { credential: device.assert(options.body.data.request_options.publicKey, { origin: testOrigin }) })).status).toBe(200);
    });

    it("should refuse a wrong challenge, a wrong origin, a replayed counter and another user's credential", async () => {
      const anna = await signedIn(app, "anna@example.ch");
      const annaKey = createSoftwareAuthenticator();
      await addKey(anna, annaKey);
      const bo = await signedIn(app, "bo@example.ch");
      const boKey = createSoftwareAuthenticator();
      await addKey(bo, boKey);

      const attacker = newClient(app);
      await attacker.post("/auth/login", { email: "anna@example.ch", password });
      let options = (await attacker.get("/auth/webauthn/authenticate")).body.data.request_options.publicKey;
      const refused = { status: 400, errors: [{ message: "Incorrect code.", code: "incorrect_code", param: "credential" }] };
      expect((await attacker.post("/auth/webauthn/authenticate", { credential: boKey.assert({ ...options, allowCredentials: [] }, { origin: testOrigin }) })).body).toEqual(refused);
      options = (await attacker.get("/auth/webauthn/authenticate")).body.data.request_options.publicKey;
      expect((await attacker.post("/auth/webauthn/authenticate", { credential: annaKey.assert(options, { origin: testOrigin, challenge: "d3JvbmctY2hhbGxlbmdl" }) })).body).toEqual(refused);
      options = (await attacker.get("/auth/webauthn/authenticate")).body.data.request_options.publicKey;
      expect((await attacker.post("/auth/webauthn/authenticate", { credential: annaKey.assert(options, { origin: "https://evil.example" }) })).body).toEqual(refused);
      // A challenge is single use: the same signed answer cannot be sent twice.
      options = (await attacker.get("/auth/webauthn/authenticate")).body.data.request_options.publicKey;
      const good = annaKey.assert(options, { origin: testOrigin });
      expect((await attacker.post("/auth/webauthn/authenticate", { credential: good })).status).toBe(200);
      await attacker.delete("/auth/session");
      await attacker.post("/auth/login", { email: "anna@example.ch", password });
      expect((await attacker.post("/auth/webauthn/authenticate", { credential: good })).body).toEqual(refused);
      // A cloned authenticator shows an old signature counter.
      options = (await attacker.get("/auth/webauthn/authenticate")).body.data.request_options.publicKey;
      expect((await attacker.post("/auth/webauthn/authenticate", { credential: annaKey.assert(options, { origin: testOrigin, signCount: 1 }) })).body).toEqual(refused);
    });

    it("should answer 409 unverified_email when adding a key with an unverified address, and need reauthentication", async () => {
      const user = await signedIn(app, "anna@example.ch");
      advance(301);
      expect((await user.get("/account/authenticators/webauthn")).status).toBe(401);
      expect((await user.post("/auth/reauthenticate", { password })).status).toBe(200);
      await user.post("/account/email", { email: "second@example.ch" });
      expect((await user.get("/account/authenticators/webauthn")).body.errors[0].code).toBe("unverified_email");
    });

    it("should work for app clients with X-Session-Token", async () => {
      const user = await signedIn(app, "anna@example.ch", "app");
      const device = createSoftwareAuthenticator();
      expect((await addKey(user, device, { passwordless: true })).status).toBe(200);
      const anonymous = newClient(app, "app");
      const options = await anonymous.get("/auth/webauthn/login");
      expect(options.body.meta.session_token).toEqual(expect.any(String));
      const login = await anonymous.post("/auth/webauthn/login", { credential: device.assert(options.body.data.request_options.publicKey, { origin: testOrigin }) });
      expect(login.status).toBe(200);
      expect(login.body.meta.session_token).toEqual(expect.any(String));
    });
  });

  describe("configuration", () => {
    it("should hide passkey login and WebAuthn routes when webauthn is not supported", async () => {
      const narrow = createIdentityTestApp(testDatabase, { clock, environment: { MFA_SUPPORTED_TYPES: "totp,recovery_codes" } });
      const browser = newClient(narrow);
      expect((await browser.get("/config")).body.data.mfa).toEqual({ supported_types: ["totp", "recovery_codes"], passkey_login_enabled: false });
      expect((await browser.get("/auth/session")).body.data.flows).toEqual([{ id: "login" }, { id: "login_by_code" }, { id: "signup" }]);
      expect((await narrow.request("/_allauth/browser/v1/auth/webauthn/login")).status).toBe(404);
      expect((await narrow.request("/_allauth/browser/v1/account/authenticators/webauthn")).status).toBe(404);
    });
  });
});
