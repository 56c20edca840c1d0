import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { Hono } from "hono";
import { testOrigin } from "../identity/testing/identity-test-client.ts";

/** The five columns of the authorisation matrix. */
export const securityRoles = ["anonymous", "learnerA", "learnerB", "owner", "subscriber"] as const;
export type SecurityRole = (typeof securityRoles)[number];

/**
 * Someone talking to the server: a browser cookie jar (session, CSRF token, learner cookie) and, for the app API, a
 * session token. The anonymous persona has a CSRF token and a learner cookie but no session.
 */
export type Persona = {
  role: SecurityRole;
  email: string | null;
  userId: string | null;
  /** Each persona has its own address, so rate limits and session activity stay per persona. */
  address: string;
  cookies: Map<string, string>;
  appSessionToken: string | null;
};

export type UploadedFile = { fileName: string; content: string | Uint8Array; type: string };

/** One request of the matrix, the CSRF sweep or the fuzzer, without the credentials (the persona adds those). */
export type RouteRequest = {
  /** Path and query string. */
  path: string;
  json?: unknown;
  /** A body sent as is, with its own Content-Type. */
  raw?: { body: string | Uint8Array; contentType: string | null };
  /** A multipart/form-data body. */
  form?: Record<string, string | UploadedFile>;
  /** An application/x-www-form-urlencoded body. */
  urlencoded?: Record<string, string>;
  headers?: Record<string, string>;
};

/** How the CSRF credentials of an unsafe browser request are sent: right, or one of the ways the sweep breaks them. */
export type CsrfVariant = "valid" | "missing-token" | "wrong-token" | "foreign-origin";

export const foreignOrigin = "https://evil.example";
const wrongCsrfToken = "WrongWrongWrongWrongWrongWrong00";
export const personaUserAgent = "atelier security suite";

export type PersonaResponse = { status: number; headers: Headers; text: string };

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isAppClientPath(path: string): boolean {
  return path.startsWith("/_allauth/app/");
}

function toBytes(content: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof content === "string" ? new TextEncoder().encode(content) : new Uint8Array(content);
}

function buildBody(request: RouteRequest): { body: RequestInit["body"]; contentType: string | null } {
  if (request.json !== undefined) return { body: JSON.stringify(request.json), contentType: "application/json" };
  if (request.raw !== undefined) return { body: typeof request.raw.body === "string" ? request.raw.body : toBytes(request.raw.body), contentType: request.raw.contentType };
  if (request.urlencoded !== undefined) return { body: new URLSearchParams(request.urlencoded).toString(), contentType: "application/x-www-form-urlencoded" };
  if (request.form !== undefined) {
    const form = new FormData();
    for (const [name, value] of Object.entries(request.form)) {
      if (typeof value === "string") form.append(name, value);
      else form.append(name, new File([toBytes(value.content)], value.fileName, { type: value.type }));
    }
    return { body: form, contentType: null };
  }
  return { body: undefined, contentType: null };
}

/** The site is compressed when the request accepts it; `app.request()` hands the bytes over as they are. */
function decodeBody(bytes: Buffer, contentEncoding: string | null): string {
  switch (contentEncoding) {
    case "gzip":
      return gunzipSync(bytes).toString("utf8");
    case "deflate":
      return inflateSync(bytes).toString("utf8");
    case "br":
      return brotliDecompressSync(bytes).toString("utf8");
    default:
      return bytes.toString("utf8");
  }
}

/** Copies `Set-Cookie` answers into a jar (used while the world is built; the matrix never changes a persona). */
export function storeResponseCookies(cookies: Map<string, string>, headers: Headers): void {
  for (const cookie of headers.getSetCookie()) {
    const [pair = "", ...attributes] = cookie.split(";");
    const separator = pair.indexOf("=");
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute.trim()) || /^expires=thu, 01 jan 1970/i.test(attribute.trim()));
    if (expired || value === "") cookies.delete(name);
    else cookies.set(name, value);
  }
}

/**
 * Sends a request as a persona through `app.request()`. Browser paths carry the cookie jar and, on unsafe methods,
 * `Origin` and `X-CSRFToken` as a page would (or broken as `csrf` says); `/_allauth/app/` paths carry
 * `X-Session-Token` and no cookies.
 *
 * @example
 * const answer = await sendAs(app, world.personas.owner, "POST", { path: "/api/merge-progress/", json: {} });
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any server variables
export async function sendAs(app: Hono<any>, persona: Persona, method: string, request: RouteRequest, options: { csrf?: CsrfVariant; storeCookies?: boolean } = {}): Promise<PersonaResponse> {
  const csrf = options.csrf ?? "valid";
  // The development pages answer only this machine with no proxy in between, so their requests carry no relay header.
  const headers: Record<string, string> = request.path.startsWith("/dev/") ? { "User-Agent": personaUserAgent } : { "X-Forwarded-For": persona.address, "User-Agent": personaUserAgent };
  const { body, contentType } = buildBody(request);
  if (contentType !== null) headers["Content-Type"] = contentType;
  if (isAppClientPath(request.path)) {
    if (persona.appSessionToken) headers["X-Session-Token"] = persona.appSessionToken;
  } else {
    if (persona.cookies.size > 0) headers.Cookie = [...persona.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (unsafeMethods.has(method)) {
      headers.Origin = csrf === "foreign-origin" ? foreignOrigin : testOrigin;
      if (csrf === "wrong-token") headers["X-CSRFToken"] = wrongCsrfToken;
      else if (csrf !== "missing-token") headers["X-CSRFToken"] = persona.cookies.get("csrftoken") ?? "";
    }
  }
  const response = await app.request(request.path, { method, headers: { ...headers, ...request.headers }, body });
  if (options.storeCookies) storeResponseCookies(persona.cookies, response.headers);
  return { status: response.status, headers: response.headers, text: decodeBody(Buffer.from(await response.arrayBuffer()), response.headers.get("content-encoding")) };
}
