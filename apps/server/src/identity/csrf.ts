import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { HttpError } from "../http/http-errors.ts";
import { constantTimeEquals } from "./secrets.ts";
import { randomBytes } from "node:crypto";

export const csrfCookieName = "csrftoken";
export const csrfHeaderName = "X-CSRFToken";
export const csrfFormFieldName = "csrfmiddlewaretoken";

const csrfAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A 32-character token like Django's CSRF secret. */
export function createCsrfToken(): string {
  const bytes = randomBytes(32);
  let token = "";
  for (const byte of bytes) {
    token += csrfAlphabet[byte % csrfAlphabet.length];
  }
  return token;
}

/** Sets the `csrftoken` cookie (readable by the page, SameSite=Lax, one year), as Django does. */
export function setCsrfCookie(c: Context, token: string, secure: boolean): void {
  setCookie(c, csrfCookieName, token, { path: "/", sameSite: "Lax", secure, httpOnly: false, maxAge: 365 * 24 * 3600 });
}

/** Django's 403 for allauth's clients: `status`, `message` and `errors: [{ code: "csrf_failed" }]` on every API. */
function csrfFailure(reason: string): never {
  throw new HttpError(403, `CSRF verification failed: ${reason}`, { code: "csrf_failed", fromTheServer: true });
}

function originOf(url: string | undefined): string | null {
  if (!url) {
    return null;
  }
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The largest form whose `csrfmiddlewaretoken` field is read. The forms that post one (a provider's redirect, the
 * billing portal, the development checkout) weigh a few hundred bytes; a larger form (an upload) sends the header, so
 * that a refused request costs no parse of megabytes on this thread.
 */
export const maximumFormBytesReadForCsrfToken = 16 * 1024;

/** Whether the body is known to be small enough to parse for its token: declared so (requests made in-process declare nothing). */
function isSmallForm(c: Context): boolean {
  const declaredLength = c.req.header("content-length");
  if (declaredLength !== undefined) return /^\d+$/.test(declaredLength) && Number(declaredLength) <= maximumFormBytesReadForCsrfToken;
  return c.req.header("transfer-encoding") === undefined;
}

const largeFormWithoutHeader = `a form of more than ${maximumFormBytesReadForCsrfToken / 1024} KB must send the csrftoken cookie's value in the ${csrfHeaderName} header.`;

async function readSubmittedToken(c: Context): Promise<string | null | { refused: string }> {
  const headerToken = c.req.header(csrfHeaderName);
  if (headerToken) {
    return headerToken;
  }
  const contentType = c.req.header("content-type") ?? "";
  if (contentType.startsWith("application/x-www-form-urlencoded") || contentType.startsWith("multipart/form-data")) {
    if (!isSmallForm(c)) return { refused: largeFormWithoutHeader };
    try {
      const form = await c.req.parseBody();
      const field = form[csrfFormFieldName];
      return typeof field === "string" ? field : null;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Why an unsafe request fails the CSRF check, or `null` when it passes: its `Origin` (else its `Referer`'s) must be
 * `publicOrigin`, and the token it submits must equal the `csrftoken` cookie. The middleware's rule, also used by the
 * node front's POST routes (which answer only what passes it).
 */
export async function csrfFailureOf(
  request: { origin: string | undefined; referer: string | undefined; cookieToken: string | undefined; submittedToken: () => string | null | Promise<string | null | { refused: string }> },
  publicOrigin: string,
): Promise<string | null> {
  const requestOrigin = request.origin ?? originOf(request.referer);
  if (!requestOrigin) return "the request has neither an Origin nor a Referer header.";
  if (requestOrigin !== publicOrigin) return `the origin ${requestOrigin} is not ${publicOrigin}.`;
  if (!request.cookieToken) return "the csrftoken cookie is missing; load a page or GET /_allauth/browser/v1/config first.";
  const submittedToken = await request.submittedToken();
  if (typeof submittedToken === "object" && submittedToken !== null) return submittedToken.refused;
  if (!submittedToken) return `send the csrftoken cookie's value in the ${csrfHeaderName} header.`;
  if (!constantTimeEquals(submittedToken, request.cookieToken)) return `the ${csrfHeaderName} header does not match the csrftoken cookie.`;
  return null;
}

/**
 * CSRF protection for the whole server, as Django's middleware does it for allauth's browser client:
 * - every GET/HEAD answer sets a `csrftoken` cookie when the request had none, so a page always has a token;
 * - every POST/PUT/PATCH/DELETE (except the exempt prefixes) needs an `Origin` (or, without it, a `Referer`) equal
 *   to `publicOrigin`, and the cookie's value echoed in `X-CSRFToken` or, for form posts, `csrfmiddlewaretoken`.
 * A failure throws a 403 `HttpError` (code `csrf_failed`) before any handler runs.
 *
 * @example
 * app.use(createCsrfMiddleware({ publicOrigin: "https://atelier.example", exemptPathPrefixes: ["/_allauth/app/"] }));
 */
export function createCsrfMiddleware(options: { publicOrigin: string; exemptPathPrefixes: readonly string[] }): MiddlewareHandler {
  const secure = options.publicOrigin.startsWith("https:");
  return async (c, next) => {
    const cookieToken = getCookie(c, csrfCookieName);
    if (unsafeMethods.has(c.req.method)) {
      if (options.exemptPathPrefixes.some((prefix) => c.req.path.startsWith(prefix))) {
        await next();
        return;
      }
      const failure = await csrfFailureOf(
        { origin: c.req.header("origin"), referer: c.req.header("referer"), cookieToken, submittedToken: () => readSubmittedToken(c) },
        options.publicOrigin,
      );
      if (failure !== null) return csrfFailure(failure);
      await next();
      return;
    }
    await next();
    // App clients (and the webhook) authenticate otherwise and get no cookie, as allauth sets none for them.
    const exempt = options.exemptPathPrefixes.some((prefix) => c.req.path.startsWith(prefix));
    if (!exempt && !cookieToken && (c.req.method === "GET" || c.req.method === "HEAD") && !c.res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${csrfCookieName}=`))) {
      setCsrfCookie(c, createCsrfToken(), secure);
    }
  };
}
