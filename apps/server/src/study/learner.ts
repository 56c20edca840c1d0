import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { getAuthenticatedUser, guessAuthenticatedUserId } from "../identity/index.ts";

export const learnerCookieName = "learner_id";
/** The cookie's value: the learner's id (32 base64url characters) and its signature, `<id>.<signature>` (decision 0085). */
const signedLearnerCookiePattern = /^([A-Za-z0-9_-]{32})\.([A-Za-z0-9_-]{22})$/;
/** Issued before the signature: an id alone, still read until it expires (a year at most). */
const unsignedLearnerCookiePattern = /^[A-Za-z0-9_-]{32}$/;
/** The `learner_id` cookie lasts this long from the study request that set it, and is never renewed (decision 0016). */
export const learnerCookieMaximumAgeSeconds = 365 * 24 * 3600;

/** How the server writes and reads `learner_id`: `Secure` or not, and the key that signs it (the server's `SECRET_KEY`). */
export type LearnerCookies = { secure: boolean; signingKey: string };

/**
 * A `learner_id` cookie as read: the learner's id, and whether the server's signature proves it issued the id
 * (`signed`) or the cookie predates signatures (`unsigned`), which only records already kept under the id can vouch for.
 */
export type LearnerCookie = { id: string; proof: "signed" | "unsigned" };

function signatureOf(id: string, signingKey: string): string {
  return createHmac("sha256", signingKey).update(`atelier-learner:${id}`).digest("base64url").slice(0, 22);
}

/** The cookie value that carries a learner's id, signed. */
export function learnerCookieValueOf(id: string, signingKey: string): string {
  return `${id}.${signatureOf(id, signingKey)}`;
}

/** A new learner's id and the cookie value that carries it. */
export function issueLearnerCookie(signingKey: string): { id: string; value: string } {
  const id = randomBytes(24).toString("base64url");
  return { id, value: learnerCookieValueOf(id, signingKey) };
}

/** A `learner_id` cookie's id, or `null` (as if absent) when it is malformed or its signature is not the server's. */
export function readLearnerCookieValue(value: string | undefined, signingKey: string): LearnerCookie | null {
  if (value === undefined) return null;
  if (unsignedLearnerCookiePattern.test(value)) return { id: value, proof: "unsigned" };
  const match = signedLearnerCookiePattern.exec(value);
  if (match === null) return null;
  const [, id = "", signature = ""] = match;
  return timingSafeEqual(Buffer.from(signature), Buffer.from(signatureOf(id, signingKey))) ? { id, proof: "signed" } : null;
}

/** Who is studying: progress rows are keyed by `key` ("user:<id>" or "anonymous:<learner id>", the id the `learner_id` cookie carries). */
export type Learner =
  | { kind: "signed-in"; key: string; userId: string }
  | { kind: "anonymous"; key: string; cookie: string };

export function userLearnerKey(userId: string): string {
  return `user:${userId}`;
}

export function signedInLearner(userId: string): Learner {
  return { kind: "signed-in", key: userLearnerKey(userId), userId };
}

export function anonymousLearner(cookie: string): Learner {
  return { kind: "anonymous", key: anonymousLearnerKey(cookie), cookie };
}

export function anonymousLearnerKey(cookie: string): string {
  return `anonymous:${cookie}`;
}

/** This request's `learner_id` cookie, or `null` when it has none the server can read as its own. */
export function readLearnerCookie(c: Context, cookies: LearnerCookies): LearnerCookie | null {
  return readLearnerCookieValue(getCookie(c, learnerCookieName), cookies.signingKey);
}

/**
 * The learner of this request: the signed-in user, or the anonymous learner of the `learner_id` cookie, which is
 * created (signed, HttpOnly, SameSite=Lax, one year) on the first study request that needs it.
 */
export async function resolveLearner(c: Context, cookies: LearnerCookies): Promise<Learner> {
  const user = await getAuthenticatedUser(c);
  if (user) {
    return signedInLearner(user.id);
  }
  const cookie = readLearnerCookie(c, cookies);
  if (cookie !== null) return anonymousLearner(cookie.id);
  const issued = issueLearnerCookie(cookies.signingKey);
  setCookie(c, learnerCookieName, issued.value, { path: "/", httpOnly: true, sameSite: "Lax", secure: cookies.secure, maxAge: learnerCookieMaximumAgeSeconds });
  return anonymousLearner(issued.id);
}

/**
 * Starts `work` for the user this request's session was last seen with (decision 0045), while the session is still
 * being read; answers, once the real user is known, the work's promise if it was started for that user, else `null`
 * (no guess, or a wrong one: the caller does the work for the real learner). `work` must only do what may be dropped.
 *
 * @example
 * const countedFor = startForGuessedUser(c, (userId) => limiter.registerRequest(userLearnerKey(userId)));
 * const decision = await (countedFor(user?.id ?? null) ?? limiter.registerRequest(learnerKey));
 */
export function startForGuessedUser<Value>(c: Context, work: (userId: string) => Promise<Value>): (userId: string | null) => Promise<Value> | null {
  const guessedUserId = guessAuthenticatedUserId(c);
  if (guessedUserId === null) return () => null;
  const started = work(guessedUserId);
  // Handled here so that work dropped for a wrong guess is not an unhandled rejection; awaited when the guess holds.
  started.catch(() => {});
  return (userId) => (userId === guessedUserId ? started : null);
}

/**
 * Resolves the learner and runs `read` for them, starting `read` while the session is still being read when this
 * process saw the request's session lately (`startForGuessedUser`): on PostgreSQL one round trip less. The session
 * decides: what was read for a guessed learner is dropped, and read again for the real one, unless the two are the same
 * user. `read` must therefore only read.
 *
 * @example
 * const [learner, group] = await readAsLearner(c, learnerCookies, (learner) => loadVisibleGroup(database, groupId, learner));
 */
export async function readAsLearner<Value>(c: Context, cookies: LearnerCookies, read: (learner: Learner) => Promise<Value>): Promise<[Learner, Value]> {
  const readFor = startForGuessedUser(c, (userId) => read(signedInLearner(userId)));
  const learner = await resolveLearner(c, cookies);
  return [learner, await (readFor(learner.kind === "signed-in" ? learner.userId : null) ?? read(learner))];
}

export function clearLearnerCookie(c: Context, secureCookies: boolean): void {
  deleteCookie(c, learnerCookieName, { path: "/", httpOnly: true, sameSite: "Lax", secure: secureCookies });
}
