import { expect } from "vitest";
import type { Hono } from "hono";
import { listOutboxMails } from "../../mail/outbox-mailer.ts";
import type { AtelierDatabase } from "../../database/open-database.ts";
import { loadContractValidator } from "./openapi-contract.ts";

export const testOrigin = "http://localhost:3000";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers field by field; the contract check types them.
export type TestResponse = { status: number; body: any; headers: Headers };

/**
 * A browser (cookie jar, `X-CSRFToken` from the `csrftoken` cookie, `Origin`) or app (`X-Session-Token` from
 * `meta.session_token`) talking to the server through `app.request()`. Every identity answer is checked against
 * openapi.yaml when that file exists.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any server variables
export function createIdentityTestClient(app: Hono<any>, options: { client?: "browser" | "app"; ip?: string } = {}) {
  const client = options.client ?? "browser";
  const base = `/_allauth/${client}/v1`;
  const cookies = new Map<string, string>();
  let sessionToken: string | null = null;
  const contract = loadContractValidator();

  function storeCookies(headers: Headers) {
    for (const cookie of headers.getSetCookie()) {
      const [pair = "", ...attributes] = cookie.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /max-age=0\b/i.test(attribute.trim()) || /expires=thu, 01 jan 1970/i.test(attribute.trim()));
      if (expired || value === "") {
        cookies.delete(name);
      } else {
        cookies.set(name, value);
      }
    }
  }

  async function send(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { "X-Forwarded-For": options.ip ?? "203.0.113.7", "User-Agent": "vitest browser" };
    if (client === "browser" && method !== "GET" && !cookies.has("csrftoken") && !init.headers?.["X-CSRFToken"]) {
      // A real page has loaded the site (or GET /config) before it posts, which gave it the csrftoken cookie.
      await send("GET", "/config");
    }
    if (client === "browser") {
      if (cookies.size > 0) {
        headers.Cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      }
      if (method !== "GET") {
        headers.Origin = testOrigin;
        headers["X-CSRFToken"] = cookies.get("csrftoken") ?? "null";
      }
    } else if (sessionToken) {
      headers["X-Session-Token"] = sessionToken;
    }
    if (init.body !== undefined) {
      headers["Content-Type"] = init.body instanceof URLSearchParams ? "application/x-www-form-urlencoded" : "application/json";
    }
    const fullPath = /^\/(_allauth|dev|messages|accounts|api)\b/.test(path) ? path : `${base}${path}`;
    const response = await app.request(fullPath, {
      method,
      headers: { ...headers, ...init.headers },
      body: init.body === undefined ? undefined : init.body instanceof URLSearchParams ? init.body.toString() : JSON.stringify(init.body),
    });
    if (response.status === 302) {
      storeCookies(response.headers);
      return { status: 302, body: null, headers: response.headers };
    }
    storeCookies(response.headers);
    const text = await response.text();
    const body = text ? JSON.parse(text) : null;
    if (body?.meta?.session_token) {
      sessionToken = body.meta.session_token;
    }
    if (contract && fullPath.startsWith("/_allauth") && response.status !== 403) {
      expect(contract.validate({ method, path: fullPath.split("?")[0] ?? fullPath, status: response.status, body }), `contract of ${method} ${fullPath}`).toEqual([]);
    }
    return { status: response.status, body, headers: response.headers };
  }

  return {
    cookies,
    get sessionToken() {
      return sessionToken;
    },
    set sessionToken(token: string | null) {
      sessionToken = token;
    },
    get: (path: string, headers?: Record<string, string>) => send("GET", path, { headers }),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => send("POST", path, { body: body ?? {}, headers }),
    put: (path: string, body?: unknown) => send("PUT", path, { body: body ?? {} }),
    patch: (path: string, body?: unknown) => send("PATCH", path, { body: body ?? {} }),
    delete: (path: string, body?: unknown) => send("DELETE", path, { body }),
    /** A top-level form post, as a page submits it: the CSRF token travels in `csrfmiddlewaretoken`, not in a header. */
    postForm: async (path: string, fields: Record<string, string>, options: { csrfToken?: string | null } = {}) => {
      if (!cookies.has("csrftoken")) {
        await send("GET", "/config");
      }
      const token = options.csrfToken === undefined ? (cookies.get("csrftoken") ?? "") : options.csrfToken;
      const form = new URLSearchParams(token === null ? fields : { ...fields, csrfmiddlewaretoken: token });
      return send("POST", path, { body: form, headers: { "X-CSRFToken": "" } });
    },
    send,
  };
}

export type IdentityTestClient = ReturnType<typeof createIdentityTestClient>;

/** The last `Your code: XXXX-XXXX` mailed to an address. */
export async function readLastCode(database: AtelierDatabase, to: string): Promise<string> {
  const [mail] = await listOutboxMails(database, { to });
  const code = mail?.text.match(/^Your code: ([A-Z]{4}-[A-Z]{4})$/m)?.[1];
  if (!code) {
    throw new Error(`No code was mailed to ${to}; last mail: ${mail?.subject ?? "none"}.`);
  }
  return code;
}

/** The key at the end of the last link of the given kind mailed to an address. */
export async function readLastLinkKey(database: AtelierDatabase, to: string, route: "verify-email" | "password/reset/key"): Promise<string> {
  const [mail] = await listOutboxMails(database, { to });
  const key = mail?.text.match(new RegExp(`${testOrigin}/account/${route}/([A-Za-z0-9_-]+)`))?.[1];
  if (!key) {
    throw new Error(`No ${route} link was mailed to ${to}; last mail: ${mail?.subject ?? "none"}.`);
  }
  return key;
}
