import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../database/test-databases.ts";
import { createIdentityTestClient, readLastCode, testOrigin } from "./testing/identity-test-client.ts";
import { createIdentityTestApp } from "./testing/test-app.ts";

const password = "correct horse battery";
let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;

beforeEach(async () => {
  testDatabase = await openTestDatabase("sqlite");
  now = new Date("2026-03-01T10:00:00.000Z");
});
afterEach(async () => {
  await testDatabase.destroy();
});

async function createVerifiedUser(app: ReturnType<typeof createIdentityTestApp>, email: string) {
  const browser = createIdentityTestClient(app, { ip: "192.0.2.200" });
  await browser.post("/auth/signup", { email, password });
  await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, email) });
  await browser.delete("/auth/session");
}

async function countUsers() {
  return (await testDatabase.database.selectFrom("identity_user").select("id").execute()).length;
}

describe("given CSRF protection", () => {
  const cases: { description: string; headers: Record<string, string> }[] = [
    { description: "no X-CSRFToken header", headers: { Origin: testOrigin, Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345" } },
    { description: "a wrong X-CSRFToken", headers: { Origin: testOrigin, Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345", "X-CSRFToken": "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz" } },
    { description: "no csrftoken cookie", headers: { Origin: testOrigin, "X-CSRFToken": "abcdefghijklmnopqrstuvwxyz012345" } },
    { description: "a foreign Origin", headers: { Origin: "https://evil.example", Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345", "X-CSRFToken": "abcdefghijklmnopqrstuvwxyz012345" } },
    { description: "a foreign Referer and no Origin", headers: { Referer: "https://evil.example/page", Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345", "X-CSRFToken": "abcdefghijklmnopqrstuvwxyz012345" } },
    { description: "neither Origin nor Referer", headers: { Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345", "X-CSRFToken": "abcdefghijklmnopqrstuvwxyz012345" } },
  ];

  it.each(cases)("should answer a signup with $description with a JSON 403 and create nothing", async ({ headers }) => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const response = await app.request("/_allauth/browser/v1/auth/signup", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ email: "anna@example.ch", password }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ status: 403, message: expect.stringContaining("CSRF verification failed"), errors: [{ message: expect.any(String), code: "csrf_failed" }] });
    expect(await countUsers()).toBe(0);
  });

  it("should accept the token from a same-origin Referer and from the csrfmiddlewaretoken form field", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const token = "abcdefghijklmnopqrstuvwxyz012345";
    const viaReferer = await app.request("/_allauth/browser/v1/auth/signup", {
      method: "POST",
      headers: { "Content-Type": "application/json", Referer: `${testOrigin}/account/signup`, Cookie: `csrftoken=${token}`, "X-CSRFToken": token },
      body: JSON.stringify({ email: "anna@example.ch", password }),
    });
    expect(viaReferer.status).toBe(401);
    const viaForm = await app.request("/_allauth/browser/v1/auth/session", {
      method: "DELETE",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: testOrigin, Cookie: `csrftoken=${token}` },
      body: new URLSearchParams({ csrfmiddlewaretoken: token }).toString(),
    });
    expect(viaForm.status).toBe(401);
  });

  it("should not parse a form of more than 16 KB for its token, declared or chunked, but ask for the header", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const token = "abcdefghijklmnopqrstuvwxyz012345";
    const body = new URLSearchParams({ csrfmiddlewaretoken: token, padding: "x".repeat(16 * 1024) }).toString();
    const lengthHeaders: Record<string, string>[] = [{ "Content-Length": String(body.length) }, { "Transfer-Encoding": "chunked" }];
    for (const lengthHeader of lengthHeaders) {
      const response = await app.request("/_allauth/browser/v1/auth/session", {
        method: "DELETE",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: testOrigin, Cookie: `csrftoken=${token}`, ...lengthHeader },
        body,
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { message: string }).message).toBe("CSRF verification failed: a form of more than 16 KB must send the csrftoken cookie's value in the X-CSRFToken header.");
    }
    const small = new URLSearchParams({ csrfmiddlewaretoken: token }).toString();
    const declaredSmall = await app.request("/_allauth/browser/v1/auth/session", {
      method: "DELETE",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: testOrigin, Cookie: `csrftoken=${token}`, "Content-Length": String(small.length) },
      body: small,
    });
    expect(declaredSmall.status).toBe(401);
  });

  it("should set a readable csrftoken cookie on GET answers that lack one, including site pages", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const cookie = (await app.request("/_allauth/browser/v1/auth/session")).headers.getSetCookie().find((value) => value.startsWith("csrftoken="));
    expect(cookie).toMatch(/^csrftoken=[A-Za-z0-9]{32}; Max-Age=31536000; Path=\/; SameSite=Lax$/);
    expect((await app.request("/")).headers.getSetCookie().some((value) => value.startsWith("csrftoken="))).toBe(true);
    expect((await app.request("/", { headers: { Cookie: "csrftoken=abcdefghijklmnopqrstuvwxyz012345" } })).headers.getSetCookie()).toEqual([]);
  });

  it("should not check CSRF for app clients", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const response = await app.request("/_allauth/app/v1/auth/signup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "anna@example.ch", password }) });
    expect(response.status).toBe(401);
  });
});

describe("given session cookies", () => {
  it("should give a new HttpOnly session cookie (and CSRF token) at sign-in, and never accept the pre-sign-in one", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const browser = createIdentityTestClient(app);
    const signup = await browser.post("/auth/signup", { email: "anna@example.ch", password });
    const cookieBeforeSignIn = browser.cookies.get("sessionid");
    const csrfBeforeSignIn = browser.cookies.get("csrftoken");
    expect(signup.headers.getSetCookie().find((value) => value.startsWith("sessionid="))).toMatch(/; HttpOnly; SameSite=Lax$/);
    const verified = await browser.post("/auth/email/verify", { key: await readLastCode(testDatabase.database, "anna@example.ch") });
    expect(verified.status).toBe(200);
    expect(browser.cookies.get("sessionid")).not.toBe(cookieBeforeSignIn);
    expect(browser.cookies.get("csrftoken")).not.toBe(csrfBeforeSignIn);
    const stale = await app.request("/_allauth/browser/v1/auth/session", { headers: { Cookie: `sessionid=${cookieBeforeSignIn}` } });
    expect(stale.status).toBe(401);
  });

  it("should mark the cookies Secure when the public origin is https", async () => {
    const app = createIdentityTestApp(testDatabase, { clock, environment: { PUBLIC_ORIGIN: "https://atelier.localhost" } });
    const cookie = (await app.request("/_allauth/browser/v1/config")).headers.getSetCookie()[0];
    expect(cookie).toContain("; Secure");
  });
});

describe("given an app client", () => {
  it("should hand out a session token, accept it, and answer 410 once it is gone", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    await createVerifiedUser(app, "anna@example.ch");
    const phone = createIdentityTestClient(app, { client: "app" });
    const login = await phone.post("/auth/login", { email: "anna@example.ch", password });
    expect(login.body.meta).toEqual({ is_authenticated: true, session_token: expect.any(String) });
    const token = phone.sessionToken;
    const session = await phone.get("/auth/session");
    expect(session.body.meta).toEqual({ is_authenticated: true });
    const logout = await phone.delete("/auth/session");
    expect(logout.body).toEqual({ status: 401, data: { flows: [{ id: "login" }, { id: "login_by_code" }, { id: "signup" }, { id: "mfa_login_webauthn" }] }, meta: { is_authenticated: false } });
    phone.sessionToken = token;
    expect((await phone.get("/auth/session")).body).toEqual({ status: 410, data: { flows: [{ id: "login" }, { id: "login_by_code" }, { id: "signup" }, { id: "mfa_login_webauthn" }] }, meta: { is_authenticated: null } });
    phone.sessionToken = "garbage";
    expect((await phone.get("/config")).status).toBe(410);
  });
});

describe("given allauth's rate limits", () => {
  it("should answer the sixth failed login for one address with too_many_login_attempts, even with the right password", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    await createVerifiedUser(app, "anna@example.ch");
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const browser = createIdentityTestClient(app, { ip: `198.51.100.${attempt + 1}` });
      expect((await browser.post("/auth/login", { email: "anna@example.ch", password: "wrong password" })).body.errors[0].code).toBe("email_password_mismatch");
    }
    const browser = createIdentityTestClient(app, { ip: "198.51.100.99" });
    expect((await browser.post("/auth/login", { email: "anna@example.ch", password })).body).toEqual({
      status: 400,
      errors: [{ message: "Too many failed login attempts. Try again later.", code: "too_many_login_attempts" }],
    });
    now = new Date(now.getTime() + 301_000);
    expect((await browser.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(200);
  });

  it("should not count successful logins as failed ones", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    await createVerifiedUser(app, "anna@example.ch");
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const browser = createIdentityTestClient(app, { ip: `198.51.100.${attempt + 1}` });
      expect((await browser.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(200);
    }
  });

  it("should answer the 31st login from one address within a minute with 429", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const browser = createIdentityTestClient(app, { ip: "198.51.100.1" });
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect((await browser.post("/auth/login", {})).status).toBe(400);
    }
    const limited = await browser.post("/auth/login", {});
    expect(limited.body).toEqual({ status: 429 });
    // The window is a minute and the clock stands still: the first attempt leaves it in 60 s.
    expect(limited.headers.get("retry-after")).toBe("60");
  });

  it("should answer the 21st signup from one address within a minute with 429", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const browser = createIdentityTestClient(app, { ip: "198.51.100.1" });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await browser.post("/auth/signup", {})).status).toBe(400);
    }
    expect((await browser.post("/auth/signup", {})).body).toEqual({ status: 429 });
  });

  it("should refuse a fourth code request for one address within a minute as a field error", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const browser = createIdentityTestClient(app);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await browser.post("/auth/code/request", { email: "anna@example.ch" })).status).toBe(401);
    }
    expect((await browser.post("/auth/code/request", { email: "anna@example.ch" })).body).toEqual({
      status: 400,
      errors: [{ message: "Too many failed login attempts. Try again later.", code: "too_many_login_attempts", param: "email" }],
    });
  });

  it("should answer the sixth reset request for one address within a minute with 429", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    const browser = createIdentityTestClient(app);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await browser.post("/auth/password/request", { email: "anna@example.ch" })).status).toBe(200);
    }
    expect((await browser.post("/auth/password/request", { email: "anna@example.ch" })).body).toEqual({ status: 429 });
  });

  it("should answer the sixth password change of a user within a minute with 429", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    await createVerifiedUser(app, "anna@example.ch");
    const browser = createIdentityTestClient(app);
    await browser.post("/auth/login", { email: "anna@example.ch", password });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await browser.post("/account/password/change", {})).status).toBe(400);
    }
    expect((await browser.post("/account/password/change", {})).body).toEqual({ status: 429 });
  });

  it("should answer the eleventh e-mail change of a user within a minute with 429", async () => {
    const app = createIdentityTestApp(testDatabase, { clock });
    await createVerifiedUser(app, "anna@example.ch");
    const browser = createIdentityTestClient(app);
    await browser.post("/auth/login", { email: "anna@example.ch", password });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await browser.delete("/account/email", { email: "nobody@example.ch" })).status).toBe(400);
    }
    expect((await browser.delete("/account/email", { email: "nobody@example.ch" })).body).toEqual({ status: 429 });
  });
});

describe("given password reset by code", () => {
  it("should count GET and POST attempts together and answer 409 once they run out", async () => {
    const app = createIdentityTestApp(testDatabase, { clock, environment: { ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: "true" } });
    await createVerifiedUser(app, "anna@example.ch");
    const browser = createIdentityTestClient(app);
    const request = await browser.post("/auth/password/request", { email: "anna@example.ch" });
    expect(request.body.data.flows).toContainEqual({ id: "password_reset_by_code", is_pending: true });
    const code = await readLastCode(testDatabase.database, "anna@example.ch");
    expect((await browser.get("/auth/password/reset", { "X-Password-Reset-Key": "BBBB-BBBB" })).status).toBe(400);
    expect((await browser.post("/auth/password/reset", { key: "BBBB-BBBB", password: "a brand new password" })).body.errors[0].code).toBe("incorrect_code");
    expect((await browser.get("/auth/password/reset", { "X-Password-Reset-Key": "BBBB-BBBB" })).status).toBe(400);
    expect((await browser.get("/auth/password/reset", { "X-Password-Reset-Key": code })).status).toBe(409);
  });

  it("should reset with the right code without signing in, then answer 409 to a second reset", async () => {
    const app = createIdentityTestApp(testDatabase, { clock, environment: { ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: "true" } });
    await createVerifiedUser(app, "anna@example.ch");
    const browser = createIdentityTestClient(app);
    expect((await browser.get("/auth/session")).body.data.flows).toContainEqual({ id: "password_reset_by_code", is_pending: false });
    await browser.post("/auth/password/request", { email: "anna@example.ch" });
    const code = await readLastCode(testDatabase.database, "anna@example.ch");
    expect((await browser.get("/auth/password/reset", { "X-Password-Reset-Key": code })).body.data.user.email).toBe("anna@example.ch");
    const reset = await browser.post("/auth/password/reset", { key: code, password: "a brand new password" });
    expect(reset.status).toBe(401);
    expect(reset.body.data.flows).toContainEqual({ id: "password_reset_by_code", is_pending: false });
    expect((await browser.post("/auth/password/reset", { key: code, password: "a brand new password" })).status).toBe(409);
  });
});

describe("given e-mail verification by link", () => {
  it("should mail a link to the web route, verify with it once, and end the pending stage without signing in", async () => {
    const app = createIdentityTestApp(testDatabase, { clock, environment: { ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: "false" } });
    const browser = createIdentityTestClient(app);
    expect((await browser.post("/auth/signup", { email: "anna@example.ch", password })).status).toBe(401);
    const mails = await testDatabase.database.selectFrom("outbox_mail").select(["text_body", "html_body"]).execute();
    const key = mails[0]?.text_body.match(/\/account\/verify-email\/([A-Za-z0-9_-]+)/)?.[1] ?? "";
    expect(mails[0]?.html_body).toContain(`href="${testOrigin}/account/verify-email/${key}"`);
    expect((await browser.get("/auth/email/verify", { "X-Email-Verification-Key": key })).body).toEqual({ status: 200, data: { email: "anna@example.ch", user: expect.any(Object) }, meta: { is_authenticating: true } });
    expect((await browser.post("/auth/email/verify", { key })).status).toBe(401);
    expect((await browser.post("/auth/email/verify", { key })).body).toEqual({ status: 400, errors: [{ message: "Invalid or expired key.", code: "invalid_or_expired_key", param: "key" }] });
    expect((await browser.post("/auth/login", { email: "anna@example.ch", password })).status).toBe(200);
  });
});

describe("given optional e-mail verification", () => {
  it("should sign in right after signup and refuse a taken address with email_taken", async () => {
    const app = createIdentityTestApp(testDatabase, { clock, environment: { ACCOUNT_EMAIL_VERIFICATION: "optional", ACCOUNT_LOGIN_BY_CODE_ENABLED: "false" } });
    const browser = createIdentityTestClient(app);
    expect((await browser.get("/auth/session")).body.data.flows).toEqual([{ id: "login" }, { id: "signup" }, { id: "mfa_login_webauthn" }]);
    expect((await browser.post("/auth/signup", { email: "anna@example.ch", password })).body.data).toEqual({ user: expect.objectContaining({ email: "anna@example.ch" }), methods: [] });
    const other = createIdentityTestClient(app, { ip: "198.51.100.2" });
    expect((await other.post("/auth/signup", { email: "anna@example.ch", password })).body.errors).toEqual([{ message: "A user is already registered with this email address.", code: "email_taken", param: "email" }]);
    // allauth does not route code/request when login by code is off; our API 404 is not part of the contract.
    expect((await app.request("/_allauth/browser/v1/auth/code/request")).status).toBe(404);
  });
});
