import { Hono } from "hono";
import * as v from "valibot";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { loginBody, signupBody } from "./handlers/account-handlers.ts";
import { markPrimaryEmailAddressBody } from "./handlers/email-handlers.ts";
import { endSessionsBody } from "./handlers/session-handlers.ts";
import { IdentityInputError } from "./identity-errors.ts";
import { identityBody, readValidBody, requiredTrimmedTextField, validateIdentityBody } from "./identity-validation.ts";
import { disconnectProviderAccountBody } from "./providers/provider-handlers.ts";
import { createIdentityTestClient } from "./testing/identity-test-client.ts";
import { createIdentityTestApp } from "./testing/test-app.ts";

async function refusalOf(schema: v.GenericSchema | v.GenericSchemaAsync, body: unknown) {
  const error: unknown = await validateIdentityBody(schema, body).then(
    () => null,
    (refusal: unknown) => refusal,
  );
  expect(error).toBeInstanceOf(IdentityInputError);
  return (error as IdentityInputError).errors;
}

/** Posts `text` as the body of a request and answers what `readValidBody` read, or the error items it threw. */
async function readThroughHono(text: string) {
  const app = new Hono();
  app.post("/", async (c) => {
    try {
      return c.json({ body: await readValidBody({ c }, loginBody) });
    } catch (error) {
      if (error instanceof IdentityInputError) return c.json({ errors: error.errors });
      throw error;
    }
  });
  const response = await app.request("/", { method: "POST", body: text, headers: { "Content-Type": "application/json" } });
  return (await response.json()) as { body?: unknown; errors?: unknown };
}

describe("given the identity service's body schemas", () => {
  it("should read a login body, trimming and lowercasing the e-mail and ignoring fields allauth does not know", async () => {
    const body = await validateIdentityBody(loginBody, { email: "  Ada@Example.COM ", password: " secret ", remember: true });

    expect(body).toEqual({ email: "ada@example.com", password: " secret " });
  });

  it("should list a missing e-mail and a blank password together, in field order, with allauth's messages", async () => {
    const errors = await refusalOf(loginBody, { email: "   ", password: "" });

    expect(errors).toEqual([
      { message: "This field is required.", code: "required", param: "email" },
      { message: "This field is required.", code: "required", param: "password" },
    ]);
  });

  it("should say invalid, and only invalid, of an address that is not one", async () => {
    const errors = await refusalOf(loginBody, { email: "not an address", password: "x" });

    expect(errors).toEqual([{ message: "Enter a valid email address.", code: "invalid", param: "email" }]);
  });

  it("should read a value that is not text as Django's form does: its text, or empty when null or an empty list", async () => {
    expect((await refusalOf(loginBody, { email: 42, password: [] })).map((error) => [error.code, error.param])).toEqual([
      ["invalid", "email"],
      ["required", "password"],
    ]);
    expect((await refusalOf(loginBody, { email: ["ada@example.com"], password: null })).map((error) => [error.code, error.param])).toEqual([
      ["invalid", "email"],
      ["required", "password"],
    ]);
    expect(await validateIdentityBody(loginBody, { email: "ada@example.com", password: 12345678 })).toEqual({ email: "ada@example.com", password: "12345678" });
    expect(await validateIdentityBody(loginBody, { email: "ada@example.com", password: false })).toEqual({ email: "ada@example.com", password: "False" });
  });

  it("should refuse U+0000 in any text field with Django's message, and read a list nested too deep as text, not a crash", async () => {
    expect(await refusalOf(loginBody, { email: "ada@example.com", password: "a\u0000b" })).toEqual([
      { message: "Null characters are not allowed.", code: "null_characters_not_allowed", param: "password" },
    ]);
    let nested: unknown = "x";
    for (let level = 0; level < 20_000; level += 1) nested = [nested];
    expect(await refusalOf(loginBody, { email: nested, password: "x" })).toEqual([{ message: "Enter a valid email address.", code: "invalid", param: "email" }]);
  });

  it("should store half of a surrogate pair as U+FFFD, so that what is answered is what is stored", async () => {
    const body = await validateIdentityBody(identityBody({ name: requiredTrimmedTextField }), { name: "A\ud800B\udc00 \ud83d\ude00" });
    expect(body).toEqual({ name: "A\uFFFDB\uFFFD \ud83d\ude00" });
  });

  it("should read a TOTP code sent as a number as its digits", async () => {
    expect(await validateIdentityBody(identityBody({ code: requiredTrimmedTextField }), { code: 123456 })).toEqual({ code: "123456" });
    expect(await validateIdentityBody(identityBody({ code: requiredTrimmedTextField }), { code: JSON.parse("1e400") as number })).toEqual({ code: "inf" });
    expect((await refusalOf(identityBody({ code: requiredTrimmedTextField }), { code: {} })).map((error) => error.code)).toEqual(["required"]);
  });

  it("should list every rule a new password breaks", async () => {
    const errors = await refusalOf(signupBody, { email: "ada@example.com", password: "1234" });

    expect(errors.map((error) => [error.code, error.param])).toEqual([
      ["password_too_short", "password"],
      ["password_too_common", "password"],
      ["password_entirely_numeric", "password"],
    ]);
  });

  it("should ask for a list of session numbers, and refuse a list with anything else in it", async () => {
    expect((await refusalOf(endSessionsBody, {})).map((error) => [error.code, error.param])).toEqual([["required", "sessions"]]);
    expect((await refusalOf(endSessionsBody, { sessions: [] })).map((error) => [error.code, error.param])).toEqual([["required", "sessions"]]);
    expect((await refusalOf(endSessionsBody, { sessions: [1, "2"] })).map((error) => [error.code, error.param])).toEqual([["invalid_choice", "sessions"]]);
    expect(await validateIdentityBody(endSessionsBody, { sessions: [1, 2] })).toEqual({ sessions: [1, 2] });
  });

  it("should name an unknown address and a missing primary flag together when changing the primary address", async () => {
    const schema = markPrimaryEmailAddressBody([{ email: "ada@example.com", verified: true, primary: false }]);

    expect((await refusalOf(schema, { email: "bob@example.com" })).map((error) => [error.code, error.param])).toEqual([
      ["unknown_email", "email"],
      ["required", "primary"],
    ]);
    expect(await validateIdentityBody(schema, { email: " ADA@example.com", primary: true })).toEqual({
      email: { email: "ada@example.com", verified: true, primary: false },
      primary: true,
    });
  });

  it("should take a third-party account's uid as text or as a number", async () => {
    expect(await validateIdentityBody(disconnectProviderAccountBody, { provider: "google", account: 1234 })).toEqual({ provider: "google", account: "1234" });
    expect((await refusalOf(disconnectProviderAccountBody, { account: null })).map((error) => [error.code, error.param])).toEqual([
      ["required", "provider"],
      ["required", "account"],
    ]);
  });

  it("should name the schema as the bug when a check's message is not an allauth error code", async () => {
    const schema = identityBody({ name: v.pipe(v.string(), v.minLength(3, "too short")) });

    await expect(validateIdentityBody(schema, { name: "x" })).rejects.toThrow(/"too short", which is not an allauth error code/);
  });
});

describe("given a request body read by readValidBody", () => {
  it("should answer invalid_json, without a param, for a body that is not JSON", async () => {
    expect(await readThroughHono("{email:")).toEqual({ errors: [{ message: "The request body must be a JSON object.", code: "invalid_json" }] });
  });

  it("should read an empty body, null and a JSON array as an empty object", async () => {
    for (const text of ["", "  ", "null", "[1, 2]"]) {
      expect(await readThroughHono(text)).toEqual({
        errors: [
          { message: "This field is required.", code: "required", param: "email" },
          { message: "This field is required.", code: "required", param: "password" },
        ],
      });
    }
  });

  it("should hand the handler the validated body", async () => {
    expect(await readThroughHono('{"email":"Ada@example.com","password":"secret"}')).toEqual({ body: { email: "ada@example.com", password: "secret" } });
  });
});

describe.each(testDatabaseEngines)("given the identity service on %s and a body it would refuse", (engine) => {
  let testDatabase: TestDatabase;
  const clock = () => new Date("2026-03-01T10:00:00.000Z");
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
  });
  afterEach(async () => {
    await testDatabase.destroy();
  });

  it("should answer an anonymous visitor 401, not 400, because the session is checked before the body", async () => {
    const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));

    const response = await browser.post("/account/email", { email: "" });

    expect(response.status).toBe(401);
  });

  it("should answer 409, not 400, when no sign-in code is pending", async () => {
    const browser = createIdentityTestClient(createIdentityTestApp(testDatabase, { clock }));

    const response = await browser.post("/auth/code/confirm", {});

    expect(response.status).toBe(409);
  });
});
