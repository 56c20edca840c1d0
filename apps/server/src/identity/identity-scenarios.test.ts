import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { listOutboxMails } from "../mail/outbox-mailer.ts";
import { createIdentityTestClient, readLastCode, readLastLinkKey, type IdentityTestClient } from "./testing/identity-test-client.ts";
import { createIdentityTestApp } from "./testing/test-app.ts";

const password = "correct horse battery";
const initialFlows = [{ id: "login" }, { id: "login_by_code" }, { id: "signup" }, { id: "mfa_login_webauthn" }];

let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;

async function signUpAndVerify(browser: IdentityTestClient, email: string) {
  expect((await browser.post("/auth/signup", { email, password })).status).toBe(401);
  const verified = await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, email) });
  expect(verified.status).toBe(200);
  return verified;
}

describe.each(testDatabaseEngines)("given the identity service on %s with the default settings", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-01T10:00:00.000Z");
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  describe("config and session", () => {
    it("should describe the account settings and session tracking in the config", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      const response = await browser.get("/config");
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 200,
        data: {
          account: {
            login_methods: ["email"],
            is_open_for_signup: true,
            email_verification_by_code_enabled: true,
            login_by_code_enabled: true,
            password_reset_by_code_enabled: false,
            authentication_method: "email",
          },
          socialaccount: { providers: [] },
          mfa: { supported_types: ["totp", "recovery_codes", "webauthn"], passkey_login_enabled: true },
          usersessions: { track_activity: true },
        },
      });
      expect(browser.cookies.get("csrftoken")).toMatch(/^[A-Za-z0-9]{32}$/);
    });

    it("should answer an anonymous session with 401 and the initial flows", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      const response = await browser.get("/auth/session");
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ status: 401, data: { flows: initialFlows }, meta: { is_authenticated: false } });
      expect(response.headers.get("Cache-Control")).toBe("max-age=0, no-cache, no-store, must-revalidate, private");
    });
  });

  describe("signup with mandatory verification by code", () => {
    it("should stop at verify_email, show the pending address, and sign in after the code with no methods", async () => {
      const loggedIn: string[] = [];
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock, onUserLoggedIn: ({ user }) => void loggedIn.push(user.email ?? "") }));
      const signup = await browser.post("/auth/signup", { email: "Anna@Example.ch", password });
      expect(signup.status).toBe(401);
      expect(signup.body).toEqual({ status: 401, data: { flows: [...initialFlows, { id: "verify_email", is_pending: true }] }, meta: { is_authenticated: false } });
      const code = await readLastCode(testDatabase.database, "anna@example.ch");

      const info = await browser.get("/auth/email/verify", { "X-Email-Verification-Key": code });
      expect(info.body).toEqual({ status: 200, data: { email: "anna@example.ch", user: { id: expect.any(String), display: "anna@example.ch", email: "anna@example.ch", has_usable_password: true } }, meta: { is_authenticating: true } });

      const verified = await browser.post("/auth/email/verify", { key: code.toLowerCase().replace("-", " ") });
      expect(verified.status).toBe(200);
      expect(verified.body).toEqual({ status: 200, data: { user: expect.objectContaining({ email: "anna@example.ch" }), methods: [] }, meta: { is_authenticated: true } });
      expect(loggedIn).toEqual(["anna@example.ch"]);
      expect((await browser.get("/auth/session")).status).toBe(200);
      expect((await browser.post("/auth/email/verify", { key: code })).status).toBe(409);
    });

    it("should answer a wrong code with incorrect_code three times and then 409", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await browser.post("/auth/signup", { email: "anna@example.ch", password });
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const wrong = await browser.get("/auth/email/verify", { "X-Email-Verification-Key": "BBBB-BBBB" });
        expect(wrong.body).toEqual({ status: 400, errors: [{ message: "Incorrect code.", code: "incorrect_code", param: "key" }] });
      }
      expect((await browser.post("/auth/email/verify", { key: "BBBB-BBBB" })).status).toBe(409);
      expect((await browser.get("/auth/session")).body.data.flows).toEqual(initialFlows);
    });

    it("should pretend to sign up an existing address, mail its owner and create nothing", async () => {
      const first = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(first, "anna@example.ch");
      const second = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.2" });
      const signup = await second.post("/auth/signup", { email: "anna@example.ch", password: "another password" });
      expect(signup.status).toBe(401);
      expect(signup.body.data.flows).toContainEqual({ id: "verify_email", is_pending: true });
      const [mail] = await listOutboxMails(testDatabase.database, { to: "anna@example.ch" });
      expect(mail?.subject).toBe("You already have an Atelier account");
      expect((await second.post("/auth/email/verify", { key: "BBBB-BBBB" })).body.errors[0].code).toBe("incorrect_code");
      expect((await second.get("/auth/session")).body.data.flows).toContainEqual({ id: "verify_email", is_pending: true });
      const users = await testDatabase.database.selectFrom("identity_user").select("id").execute();
      expect(users).toHaveLength(1);
    });

    it("should refuse an invalid address and a short password with allauth's errors", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      const response = await browser.post("/auth/signup", { email: "anna@", password: "short" });
      expect(response.body).toEqual({
        status: 400,
        errors: [
          { message: "Enter a valid email address.", code: "invalid", param: "email" },
          { message: "This password is too short. It must contain at least 8 characters.", code: "password_too_short", param: "password" },
          // As Django answers: "short" is also one of the most common passwords.
          { message: "This password is too common.", code: "password_too_common", param: "password" },
        ],
      });
    });

    it("should refuse a common password as Django's CommonPasswordValidator does, whatever its case, and store nothing", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      for (const common of ["baseball", "Password1", " QWERTYUIOP "]) {
        expect((await browser.post("/auth/signup", { email: "anna@example.ch", password: common })).body).toEqual({
          status: 400,
          errors: [{ message: "This password is too common.", code: "password_too_common", param: "password" }],
        });
      }
      expect(await testDatabase.database.selectFrom("identity_user").select("id").execute()).toEqual([]);
    });

    it("should answer 409 to a signup while signed in", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      expect((await browser.post("/auth/signup", { email: "ben@example.ch", password })).body).toEqual({ status: 409 });
    });

    it("should send a new code on resend, twice, then answer 409", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await browser.post("/auth/signup", { email: "anna@example.ch", password });
      const firstCode = await readLastCode(testDatabase.database, "anna@example.ch");
      now = new Date(now.getTime() + 11_000);
      expect((await browser.post("/auth/email/verify/resend")).body).toEqual({ status: 200 });
      const secondCode = await readLastCode(testDatabase.database, "anna@example.ch");
      expect(secondCode).not.toBe(firstCode);
      expect((await browser.post("/auth/email/verify/resend")).status).toBe(429);
      now = new Date(now.getTime() + 11_000);
      expect((await browser.post("/auth/email/verify/resend")).status).toBe(200);
      now = new Date(now.getTime() + 11_000);
      expect((await browser.post("/auth/email/verify/resend")).status).toBe(409);
      expect((await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@example.ch") })).status).toBe(200);
    });
  });

  describe("login with a password", () => {
    it("should require the e-mail and the password", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      expect((await browser.post("/auth/login", {})).body).toEqual({
        status: 400,
        errors: [
          { message: "This field is required.", code: "required", param: "email" },
          { message: "This field is required.", code: "required", param: "password" },
        ],
      });
    });

    it("should refuse a wrong password with email_password_mismatch, for known and unknown addresses alike", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      await browser.delete("/auth/session");
      const expected = { status: 400, errors: [{ param: "password", message: "The email address and/or password you specified are not correct.", code: "email_password_mismatch" }] };
      expect((await browser.post("/auth/login", { email: "anna@example.ch", password: "wrong password" })).body).toEqual(expected);
      expect((await browser.post("/auth/login", { email: "nobody@example.ch", password: "wrong password" })).body).toEqual(expected);
    });

    it("should sign in with the password method, keep the session and answer 409 to a second login", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      await browser.delete("/auth/session");
      const login = await browser.post("/auth/login", { email: "anna@example.ch", password });
      expect(login.body).toEqual({
        status: 200,
        data: { user: { id: expect.any(String), display: "anna@example.ch", email: "anna@example.ch", has_usable_password: true }, methods: [{ method: "password", at: now.getTime() / 1000, email: "anna@example.ch" }] },
        meta: { is_authenticated: true },
      });
      expect((await browser.get("/auth/session")).body).toEqual(login.body);
      expect((await browser.post("/auth/login", { email: "anna@example.ch", password })).body).toEqual({ status: 409 });
    });

    it("should stop an unverified user at verify_email and mail a new code", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await browser.post("/auth/signup", { email: "anna@example.ch", password });
      const other = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.2" });
      now = new Date(now.getTime() + 20_000);
      const login = await other.post("/auth/login", { email: "anna@example.ch", password });
      expect(login.status).toBe(401);
      expect(login.body.data.flows).toContainEqual({ id: "verify_email", is_pending: true });
      const verified = await other.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@example.ch") });
      expect(verified.body.data.methods).toEqual([{ method: "password", at: now.getTime() / 1000, email: "anna@example.ch" }]);
    });

    it("should keep a readable signed-in hint cookie exactly while the browser is signed in", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      expect((await browser.post("/auth/signup", { email: "anna@example.ch", password })).status).toBe(401);
      expect(browser.cookies.has("atelier_signed_in")).toBe(false);
      await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@example.ch") });
      expect(browser.cookies.get("atelier_signed_in")).toBe("1");
      await browser.delete("/auth/session");
      expect(browser.cookies.has("atelier_signed_in")).toBe(false);
    });

    it("should log out with 401 and the fresh flows", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      const logout = await browser.delete("/auth/session");
      expect(logout.body).toEqual({ status: 401, data: { flows: initialFlows }, meta: { is_authenticated: false } });
      expect(browser.cookies.has("sessionid")).toBe(false);
      expect((await browser.get("/auth/session")).status).toBe(401);
    });
  });

  describe("login by code", () => {
    it("should mail a code, mark login_by_code pending, and sign in with the code method", async () => {
      const setup = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(setup, "anna@example.ch");
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.2" });
      const request = await browser.post("/auth/code/request", { email: "anna@example.ch" });
      expect(request.body).toEqual({ status: 401, data: { flows: [{ id: "login" }, { id: "login_by_code", is_pending: true }, { id: "signup" }, { id: "mfa_login_webauthn" }] }, meta: { is_authenticated: false } });
      const [mail] = await listOutboxMails(testDatabase.database, { to: "anna@example.ch" });
      expect(mail?.subject).toBe("Your sign-in code for Atelier");
      const confirm = await browser.post("/auth/code/confirm", { code: await readLastCode(testDatabase.database, "anna@example.ch") });
      expect(confirm.body.data.methods).toEqual([{ method: "code", at: now.getTime() / 1000, email: "anna@example.ch" }]);
    });

    it("should answer an unknown address like a known one and never sign in", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      const request = await browser.post("/auth/code/request", { email: "nobody@example.ch" });
      expect(request.status).toBe(401);
      expect(request.body.data.flows).toContainEqual({ id: "login_by_code", is_pending: true });
      expect((await listOutboxMails(testDatabase.database, { to: "nobody@example.ch" }))[0]?.subject).toBe("No Atelier account for this address");
      expect((await browser.post("/auth/code/confirm", { code: "BBBB-BBBB" })).body.errors[0].code).toBe("incorrect_code");
    });

    it("should abort after three wrong codes: 400, 400, 400, then 409", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      await browser.delete("/auth/session");
      await browser.post("/auth/code/request", { email: "anna@example.ch" });
      const code = await readLastCode(testDatabase.database, "anna@example.ch");
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await browser.post("/auth/code/confirm", { code: "BBBB-BBBB" })).body).toEqual({ status: 400, errors: [{ message: "Incorrect code.", code: "incorrect_code", param: "code" }] });
      }
      expect((await browser.post("/auth/code/confirm", { code })).body).toEqual({ status: 409 });
      expect((await browser.get("/auth/session")).body.data.flows).toEqual(initialFlows);
    });

    it("should answer 409 to an expired code", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      await browser.delete("/auth/session");
      await browser.post("/auth/code/request", { email: "anna@example.ch" });
      now = new Date(now.getTime() + 181_000);
      expect((await browser.post("/auth/code/confirm", { code: await readLastCode(testDatabase.database, "anna@example.ch") })).status).toBe(409);
    });

    it("should answer 409 to a code confirmation during the signup verification stage", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await browser.post("/auth/signup", { email: "anna@example.ch", password });
      expect((await browser.post("/auth/code/confirm", { code: "BBBB-BBBB" })).status).toBe(409);
    });

    it("should verify the address of an unverified user who signs in by code", async () => {
      const signup = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signup.post("/auth/signup", { email: "anna@example.ch", password });
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.2" });
      await browser.post("/auth/code/request", { email: "anna@example.ch" });
      expect((await browser.post("/auth/code/confirm", { code: await readLastCode(testDatabase.database, "anna@example.ch") })).status).toBe(200);
      expect((await browser.get("/account/email")).body.data).toEqual([{ email: "anna@example.ch", verified: true, primary: true }]);
    });
  });

  describe("reauthentication", () => {
    it("should add a reauthenticated password record", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      expect((await browser.post("/auth/reauthenticate", { password: "wrong password" })).body).toEqual({ status: 400, errors: [{ message: "Incorrect password.", code: "incorrect_password", param: "password" }] });
      const response = await browser.post("/auth/reauthenticate", { password });
      expect(response.body.data.methods).toEqual([{ method: "password", at: now.getTime() / 1000, reauthenticated: true }]);
    });

    it("should answer an anonymous reauthentication with 401", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      expect((await browser.post("/auth/reauthenticate", { password })).body).toEqual({ status: 401, data: { flows: initialFlows }, meta: { is_authenticated: false } });
    });
  });

  describe("password reset by link", () => {
    it("should mail a link, show the user for the key, set the password without signing in, end every session and refuse the key again", async () => {
      const signedIn = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(signedIn, "anna@example.ch");
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.2" });
      expect((await browser.post("/auth/password/request", { email: "anna@example.ch" })).body).toEqual({ status: 200 });
      const key = await readLastLinkKey(testDatabase.database, "anna@example.ch", "password/reset/key");
      expect((await browser.get("/auth/password/reset", { "X-Password-Reset-Key": key })).body).toEqual({ status: 200, data: { user: expect.objectContaining({ email: "anna@example.ch" }) } });
      expect((await browser.post("/auth/password/reset", { key, password: "k9#x" })).body).toEqual({
        status: 400,
        errors: [{ message: "This password is too short. It must contain at least 8 characters.", code: "password_too_short", param: "password" }],
      });
      expect((await browser.post("/auth/password/reset", { key, password: "football" })).body.errors).toEqual([
        { message: "This password is too common.", code: "password_too_common", param: "password" },
      ]);
      const reset = await browser.post("/auth/password/reset", { key, password: "a brand new password" });
      expect(reset.body).toEqual({ status: 401, data: { flows: initialFlows }, meta: { is_authenticated: false } });
      expect((await listOutboxMails(testDatabase.database, { to: "anna@example.ch" }))[0]?.subject).toBe("Your Atelier password was changed");
      expect((await signedIn.get("/auth/session")).status).toBe(401);
      expect((await browser.post("/auth/password/reset", { key, password: "a brand new password" })).body).toEqual({
        status: 400,
        errors: [{ message: "The password reset token was invalid.", code: "invalid_password_reset", param: "key" }],
      });
      expect((await browser.post("/auth/login", { email: "anna@example.ch", password: "a brand new password" })).status).toBe(200);
    });

    it("should answer an unknown address the same and mail an unknown-account notice", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      expect((await browser.post("/auth/password/request", { email: "nobody@example.ch" })).body).toEqual({ status: 200 });
      const [mail] = await listOutboxMails(testDatabase.database, { to: "nobody@example.ch" });
      expect(mail?.text).toContain("http://localhost:3000/account/signup");
    });

    it("should refuse a wrong key on GET and POST with invalid_password_reset", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      const expected = { status: 400, errors: [{ message: "The password reset token was invalid.", code: "invalid_password_reset", param: "key" }] };
      expect((await browser.get("/auth/password/reset", { "X-Password-Reset-Key": "wrong" })).body).toEqual(expected);
      expect((await browser.post("/auth/password/reset", { key: "wrong", password: "a brand new password" })).body).toEqual(expected);
    });
  });

  describe("password change", () => {
    it("should need the current password, change it, keep this session and end the others", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      const other = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.2" });
      expect((await other.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(200);
      expect((await browser.post("/account/password/change", { current_password: "wrong password", new_password: "a brand new password" })).body).toEqual({
        status: 400,
        errors: [{ message: "Please type your current password.", code: "enter_current_password", param: "current_password" }],
      });
      expect((await browser.post("/account/password/change", { current_password: password })).body).toEqual({
        status: 400,
        errors: [{ message: "This field is required.", code: "required", param: "new_password" }],
      });
      const cookieBefore = browser.cookies.get("sessionid");
      expect((await browser.post("/account/password/change", { current_password: password, new_password: "sunshine1" })).body.errors).toEqual([
        { message: "This password is too common.", code: "password_too_common", param: "new_password" },
      ]);
      const changed = await browser.post("/account/password/change", { current_password: password, new_password: "a brand new password" });
      expect(changed.body).toEqual({ status: 200, data: { user: expect.objectContaining({ email: "anna@example.ch" }), methods: [] }, meta: { is_authenticated: true } });
      expect(browser.cookies.get("sessionid")).not.toBe(cookieBefore);
      expect((await browser.get("/auth/session")).status).toBe(200);
      expect((await other.get("/auth/session")).status).toBe(401);
    });
  });

  describe("e-mail addresses", () => {
    it("should list, add (with a code), verify, make primary and remove addresses", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      expect((await browser.get("/account/email")).body).toEqual({ status: 200, data: [{ email: "anna@example.ch", verified: true, primary: true }] });
      expect((await browser.post("/auth/reauthenticate", { password })).status).toBe(200);
      const added = await browser.post("/account/email", { email: "anna@atelier.ch" });
      expect(added.body.data).toEqual([
        { email: "anna@example.ch", verified: true, primary: true },
        { email: "anna@atelier.ch", verified: false, primary: false },
      ]);
      expect((await browser.post("/account/email", { email: "anna@atelier.ch" })).body.errors).toEqual([{ message: "This email address is already associated with this account.", code: "duplicate_email", param: "email" }]);
      expect((await browser.patch("/account/email", { email: "anna@atelier.ch", primary: true })).body.errors[0].code).toBe("unverified_primary_email");
      expect((await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@atelier.ch") })).status).toBe(200);
      expect((await browser.patch("/account/email", { email: "anna@atelier.ch", primary: true })).body.data).toEqual([
        { email: "anna@atelier.ch", verified: true, primary: true },
        { email: "anna@example.ch", verified: true, primary: false },
      ]);
      expect((await browser.delete("/account/email", { email: "anna@atelier.ch" })).body.errors[0].code).toBe("cannot_remove_primary_email");
      expect((await browser.delete("/account/email", { email: "nobody@example.ch" })).body.errors).toEqual([{ message: "Unknown email address.", code: "unknown_email", param: "email" }]);
      expect((await browser.delete("/account/email", { email: "anna@example.ch" })).body.data).toEqual([{ email: "anna@atelier.ch", verified: true, primary: true }]);
      expect((await browser.get("/auth/session")).body.data.user.email).toBe("anna@atelier.ch");
    });

    it("should ask for a recent authentication before an address changes, and accept it within the window", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      // A fresh sign-up records no authentication, as in allauth, so the first change needs the password.
      const refused = await browser.post("/account/email", { email: "anna@atelier.ch" });
      expect(refused.status).toBe(401);
      expect(refused.body.meta).toEqual({ is_authenticated: true });
      expect(refused.body.data.flows).toEqual([{ id: "reauthenticate" }]);
      expect(refused.body.data.user.email).toBe("anna@example.ch");
      expect((await browser.get("/account/email")).body.data).toHaveLength(1);
      expect((await browser.post("/auth/reauthenticate", { password })).status).toBe(200);
      expect((await browser.post("/account/email", { email: "anna@atelier.ch" })).status).toBe(200);
      now = new Date(now.getTime() + 301_000);
      expect((await browser.delete("/account/email", { email: "anna@atelier.ch" })).status).toBe(401);
      expect((await browser.get("/account/email")).body.data).toHaveLength(2);
    });

    it("should resend a verification code with PUT, and refuse it within the cooldown with 403", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      expect((await browser.post("/auth/reauthenticate", { password })).status).toBe(200);
      await browser.post("/account/email", { email: "anna@atelier.ch" });
      expect((await browser.put("/account/email", { email: "anna@atelier.ch" })).body).toEqual({ status: 403 });
      now = new Date(now.getTime() + 11_000);
      expect((await browser.put("/account/email", { email: "anna@atelier.ch" })).body).toEqual({ status: 200 });
      expect((await browser.put("/account/email", { email: "anna@example.ch" })).body).toEqual({ status: 403 });
    });

    it("should answer an anonymous list with 401", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      expect((await browser.get("/account/email")).status).toBe(401);
    });
  });

  describe("sessions", () => {
    it("should list the signed-in sessions with the current one marked, and end another one", async () => {
      const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));
      await signUpAndVerify(browser, "anna@example.ch");
      const other = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }), { ip: "198.51.100.2" });
      now = new Date(now.getTime() + 1_000);
      await other.post("/auth/login", { email: "anna@example.ch", password });
      const list = await browser.get("/auth/sessions");
      expect(list.body.data).toEqual([
        { id: expect.any(Number), ip: "203.0.113.7", user_agent: "vitest browser", created_at: 1772359200, last_seen_at: 1772359200, is_current: true },
        { id: expect.any(Number), ip: "198.51.100.2", user_agent: "vitest browser", created_at: 1772359201, last_seen_at: 1772359201, is_current: false },
      ]);
      const otherId = list.body.data[1].id;
      expect((await browser.delete("/auth/sessions", { sessions: [12345] })).body.errors[0].code).toBe("invalid_choice");
      expect((await browser.delete("/auth/sessions", { sessions: [otherId] })).body.data).toHaveLength(1);
      expect((await other.get("/auth/session")).status).toBe(401);
      const currentId = list.body.data[0].id;
      expect((await browser.delete("/auth/sessions", { sessions: [currentId] })).status).toBe(401);
      expect((await browser.get("/auth/session")).status).toBe(401);
    });
  });
});
