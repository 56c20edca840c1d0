import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { testOrigin } from "../../identity/testing/identity-test-client.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers field by field
export type StudyResponse = { status: number; body: any; text: string; headers: Headers };

export const fixtureDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test-fixtures");
export const englishFixture = fs.readFileSync(path.join(fixtureDirectory, "morning-train.en.xml"));
export const swedishFixture = fs.readFileSync(path.join(fixtureDirectory, "morning-train.sv.xml"));

let nextAddress = 1;

/**
 * A browser talking to the study API through `app.request()`: a cookie jar, the `csrftoken` echoed in
 * `X-CSRFToken`, and `Origin` on unsafe requests (unless `withoutCsrf`). Each client has its own address.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any server variables
export function createStudyTestClient(app: Hono<any>) {
  const cookies = new Map<string, string>();
  const address = `198.51.${Math.floor(nextAddress / 250)}.${nextAddress % 250}`;
  nextAddress += 1;

  function storeCookies(headers: Headers) {
    for (const cookie of headers.getSetCookie()) {
      const [pair = "", ...attributes] = cookie.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /max-age=0\b/i.test(attribute.trim()) || /expires=thu, 01 jan 1970/i.test(attribute.trim()));
      if (expired || value === "") cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  async function send(method: string, url: string, init: { json?: unknown; form?: FormData; withoutCsrf?: boolean; csrfInForm?: boolean } = {}): Promise<StudyResponse> {
    if (method !== "GET" && !cookies.has("csrftoken") && !init.withoutCsrf) {
      await send("GET", "/_allauth/browser/v1/config");
    }
    const headers: Record<string, string> = { "X-Forwarded-For": address, "User-Agent": "vitest browser" };
    if (cookies.size > 0) headers.Cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (method !== "GET" && !init.withoutCsrf) {
      headers.Origin = testOrigin;
      // A form posted without script carries the token as a field rather than a header.
      if (init.csrfInForm === true) init.form?.append("csrfmiddlewaretoken", cookies.get("csrftoken") ?? "");
      else headers["X-CSRFToken"] = cookies.get("csrftoken") ?? "";
    }
    let body: string | FormData | undefined;
    if (init.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form !== undefined) {
      body = init.form;
    }
    const response = await app.request(url, { method, headers, body });
    storeCookies(response.headers);
    const text = await response.text();
    let parsed: unknown = null;
    if ((response.headers.get("content-type") ?? "").startsWith("application/json") && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  return {
    cookies,
    get: (url: string) => send("GET", url),
    post: (url: string, json?: unknown, options: { withoutCsrf?: boolean } = {}) => send("POST", url, { json: json ?? {}, ...options }),
    postForm: (url: string, form: FormData) => send("POST", url, { form }),
    patch: (url: string, json?: unknown) => send("PATCH", url, { json: json ?? {} }),
    delete: (url: string, options: { withoutCsrf?: boolean } = {}) => send("DELETE", url, options),
    /** Signs up (the test app has e-mail verification off), which signs this client in. */
    async signUp(email: string): Promise<string> {
      const response = await send("POST", "/_allauth/browser/v1/auth/signup", { json: { email, password: "correct horse battery" } });
      if (response.status !== 200) throw new Error(`Signup of ${email} answered ${response.status}: ${response.text}`);
      return (response.body as { data: { user: { id: string } } }).data.user.id;
    },
    async signIn(email: string): Promise<StudyResponse> {
      const response = await send("POST", "/_allauth/browser/v1/auth/login", { json: { email, password: "correct horse battery" } });
      if (response.status !== 200) throw new Error(`Login of ${email} answered ${response.status}: ${response.text}`);
      return response;
    },
    /** Uploads two files (the fixture pair by default) and returns the answer. */
    upload(files: { english?: { name: string; bytes: Uint8Array | string } | null; swedish?: { name: string; bytes: Uint8Array | string } | null; isPublic?: string; name?: string; csrfInForm?: boolean } = {}) {
      const form = new FormData();
      const english = files.english === undefined ? { name: "Morning Train.en.xml", bytes: englishFixture } : files.english;
      const swedish = files.swedish === undefined ? { name: "Morning Train.sv.xml", bytes: swedishFixture } : files.swedish;
      if (english) form.append("english", new File([english.bytes], english.name, { type: "text/xml" }));
      if (swedish) form.append("swedish", new File([swedish.bytes], swedish.name, { type: "text/xml" }));
      if (files.isPublic !== undefined) form.append("is_public", files.isPublic);
      if (files.name !== undefined) form.append("name", files.name);
      return send("POST", "/api/upload-subtitles/", { form, csrfInForm: files.csrfInForm === true });
    },
  };
}

export type StudyTestClient = ReturnType<typeof createStudyTestClient>;
