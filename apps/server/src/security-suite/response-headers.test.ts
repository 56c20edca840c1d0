import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openTestDatabase } from "../database/test-databases.ts";
import { readLastCode } from "../identity/testing/identity-test-client.ts";
import { securityRoles, sendAs, type Persona, type PersonaResponse, type RouteRequest } from "./persona-client.ts";
import { routeExpectations } from "./route-expectations.ts";
import { useSecurityWorld, createSecurityTestApp, personaPassword, type SecurityResources } from "./security-world.ts";

/** Cookies the server may set, and how: credentials are HttpOnly; the page reads the CSRF token and the signed-in hint. */
const cookiePolicies: Record<string, { httpOnly: boolean }> = {
  sessionid: { httpOnly: true },
  learner_id: { httpOnly: true },
  csrftoken: { httpOnly: false },
  atelier_signed_in: { httpOnly: false },
};
const credentialCookies = new Set(["sessionid", "learner_id"]);

type SetCookie = { name: string; value: string; attributes: string[]; deletes: boolean };

function parseSetCookies(headers: Headers): SetCookie[] {
  return headers.getSetCookie().map((text) => {
    const [pair = "", ...attributes] = text.split(";").map((part) => part.trim());
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(pair.indexOf("=") + 1);
    const deletes = value === "" || attributes.some((attribute) => /^max-age=0$/i.test(attribute) || /^expires=thu, 01 jan 1970/i.test(attribute));
    return { name, value, attributes: attributes.map((attribute) => attribute.toLowerCase()), deletes };
  });
}

function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => `'sha256-${createHash("sha256").update(match[1] ?? "").digest("base64")}'`);
}

/** Every problem of one answer's headers; empty when it has all it needs. */
function listHeaderProblems(answer: PersonaResponse, cache: "private" | "shared"): string[] {
  const problems: string[] = [];
  const headers = answer.headers;
  const policy = headers.get("content-security-policy") ?? "";
  const directives = new Map(policy.split(";").map((directive) => directive.trim().split(/\s+/)).map(([name = "", ...sources]) => [name, sources]));
  if (directives.get("default-src")?.join(" ") !== "'self'") problems.push(`CSP default-src is not 'self': ${policy || "no CSP"}`);
  if (directives.get("frame-ancestors")?.join(" ") !== "'none'") problems.push("CSP frame-ancestors is not 'none'");
  if (directives.get("object-src")?.join(" ") !== "'none'") problems.push("CSP object-src is not 'none'");
  if (directives.get("base-uri")?.join(" ") !== "'self'") problems.push("CSP base-uri is not 'self'");
  const scriptSources = directives.get("script-src") ?? [];
  if (scriptSources.includes("'unsafe-inline'") || scriptSources.includes("'unsafe-eval'")) problems.push(`CSP script-src allows inline or eval: ${scriptSources.join(" ")}`);
  if ((headers.get("content-type") ?? "").startsWith("text/html")) {
    for (const hash of inlineScriptHashes(answer.text)) if (!scriptSources.includes(hash)) problems.push(`CSP script-src lacks the page's inline script ${hash}`);
  }
  if (headers.get("x-content-type-options") !== "nosniff") problems.push("no X-Content-Type-Options: nosniff");
  if (headers.get("referrer-policy") !== "strict-origin-when-cross-origin") problems.push(`Referrer-Policy is ${headers.get("referrer-policy")}`);
  if (answer.text !== "" && !headers.get("content-type")) problems.push("a body without Content-Type");
  const cacheControl = (headers.get("cache-control") ?? "").toLowerCase();
  const setsCredential = parseSetCookies(headers).some((cookie) => credentialCookies.has(cookie.name) && !cookie.deletes);
  if ((cache === "private" || setsCredential) && !/\b(no-store|private)\b/.test(cacheControl)) {
    problems.push(`a private answer${setsCredential ? " (it sets a credential cookie)" : ""} with Cache-Control "${cacheControl}"`);
  }
  if (cache === "private" && /\bpublic\b/.test(cacheControl)) problems.push(`a private answer with Cache-Control "${cacheControl}"`);
  return problems;
}

function listCookieProblems(cookies: SetCookie[], options: { secure: boolean }): string[] {
  const problems: string[] = [];
  for (const cookie of cookies) {
    const policy = cookiePolicies[cookie.name];
    if (!policy) {
      problems.push(`an unknown cookie ${cookie.name}: add its policy to cookiePolicies`);
      continue;
    }
    if (!cookie.attributes.includes("path=/")) problems.push(`${cookie.name} without Path=/`);
    if (options.secure && !cookie.attributes.includes("secure")) problems.push(`${cookie.name} without Secure on https`);
    // Flags of a deletion do not matter: the browser drops the cookie.
    if (cookie.deletes) continue;
    if (!cookie.attributes.includes("samesite=lax") && !cookie.attributes.includes("samesite=strict")) problems.push(`${cookie.name} without SameSite=Lax or Strict`);
    if (cookie.attributes.includes("httponly") !== policy.httpOnly) problems.push(`${cookie.name} ${policy.httpOnly ? "without" : "with"} HttpOnly`);
  }
  return problems;
}

describe("given the whole server and every route of the matrix, as each role", () => {
  const worldOf = useSecurityWorld("sqlite");

  it("should send the security headers and the cache rules on every answer, and set only cookies with the right flags", async () => {
    const problems: string[] = [];
    const cookies: SetCookie[] = [];
    for (const [key, expectation] of Object.entries(routeExpectations)) {
      const method = key.slice(0, key.indexOf(" "));
      for (const routeCase of expectation.cases) {
        for (const role of securityRoles) {
          const answer = await worldOf().send(role, method, routeCase.request(worldOf().resources));
          problems.push(...listHeaderProblems(answer, expectation.cache).map((problem) => `${key} (${routeCase.description}) as ${role}: ${problem}`));
          cookies.push(...parseSetCookies(answer.headers));
          await worldOf().restore();
        }
      }
    }
    problems.push(...listCookieProblems(cookies, { secure: false }));
    expect(problems).toEqual([]);
    // learner_id appears only as cleared: a sign-in takes the anonymous learner's progress into the account.
    expect(new Set(cookies.map((cookie) => cookie.name))).toEqual(new Set(["sessionid", "csrftoken", "atelier_signed_in", "learner_id"]));
    expect(cookies.filter((cookie) => cookie.name === "learner_id").every((cookie) => cookie.deletes)).toBe(true);
  });

  it.each<[string, string, (resources: SecurityResources) => RouteRequest, "private" | "shared"]>([
    ["an unknown API endpoint", "GET", () => ({ path: "/api/no-such-endpoint/" }), "shared"],
    ["a method a route does not have", "PUT", () => ({ path: "/user/pricing", json: {} }), "shared"],
    ["a refused CSRF check", "POST", () => ({ path: "/api/merge-progress/", json: {}, headers: { Origin: "https://evil.example" } }), "shared"],
    ["a study request whose JSON is broken", "POST", (resources) => ({ path: `/api/subtitle-groups/${resources.privateGroupId}/rename/`, raw: { body: "{", contentType: "application/json" } }), "private"],
    ["an upload over the size limit", "POST", () => ({ path: "/api/upload-subtitles/", raw: { body: "x".repeat(12 * 1024 * 1024), contentType: "multipart/form-data; boundary=x" } }), "shared"],
    ["an address that is not correctly encoded", "GET", () => ({ path: "/%E0%A4%A" }), "shared"],
  ])("should send the security headers on %s too", async (_description, method, request, cache) => {
    const answer = await worldOf().send("owner", method, request(worldOf().resources));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(listHeaderProblems(answer, cache)).toEqual([]);
    await worldOf().restore();
  });

  it("should send the security headers on a HEAD of the home page", async () => {
    const answer = await worldOf().send("anonymous", "HEAD", { path: "/" });
    expect(answer.status).toBe(200);
    expect(listHeaderProblems(answer, "shared")).toEqual([]);
  });

  it("should set the learner cookie of a first-time anonymous visitor HttpOnly on a private answer", async () => {
    const visitor: Persona = { role: "anonymous", email: null, userId: null, address: "203.0.113.50", cookies: new Map(), appSessionToken: null };
    const answer = await sendAs(worldOf().app, visitor, "GET", { path: "/api/subtitle-groups/" });
    const cookies = parseSetCookies(answer.headers);
    expect(cookies.map((cookie) => cookie.name).sort()).toEqual(["csrftoken", "learner_id"]);
    expect(listCookieProblems(cookies, { secure: false })).toEqual([]);
    expect(listHeaderProblems(answer, "private")).toEqual([]);
  });
});

describe("given a server whose public origin is https", () => {
  it("should mark every cookie Secure, from the first page to a signed-in session, and send Strict-Transport-Security", async () => {
    const testDatabase = await openTestDatabase("sqlite");
    const webBuildDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-security-empty-web-"));
    try {
      // A localhost origin: the test environment refuses a public one (its development stand-ins would be reachable).
      const origin = "https://localhost:8443";
      const app = createSecurityTestApp(testDatabase, { webBuildDirectory, environment: { PUBLIC_ORIGIN: origin } });
      const visitor: Persona = { role: "anonymous", email: null, userId: null, address: "203.0.113.60", cookies: new Map(), appSessionToken: null };
      const answers: PersonaResponse[] = [];
      const send = async (method: string, request: RouteRequest) => {
        const answer = await sendAs(app, visitor, method, { ...request, headers: { Origin: origin, ...request.headers } }, { storeCookies: true });
        answers.push(answer);
        return answer;
      };
      await send("GET", { path: "/_allauth/browser/v1/config" });
      await send("GET", { path: "/api/subtitle-groups/" });
      expect((await send("POST", { path: "/_allauth/browser/v1/auth/signup", json: { email: "secure@example.ch", password: personaPassword } })).status).toBe(401);
      expect((await send("POST", { path: "/_allauth/browser/v1/auth/email/verify", json: { key: await readLastCode(testDatabase.database, "secure@example.ch") } })).status).toBe(200);
      expect((await send("DELETE", { path: "/_allauth/browser/v1/auth/session" })).status).toBe(401);
      const cookies = answers.flatMap((answer) => parseSetCookies(answer.headers));
      expect(new Set(cookies.map((cookie) => cookie.name))).toEqual(new Set(["csrftoken", "learner_id", "sessionid", "atelier_signed_in"]));
      expect(listCookieProblems(cookies, { secure: true })).toEqual([]);
      for (const answer of answers) expect(answer.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await testDatabase.destroy();
      fs.rmSync(webBuildDirectory, { recursive: true, force: true });
    }
  });
});
