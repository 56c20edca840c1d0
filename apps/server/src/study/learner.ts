import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { getAuthenticatedUser, guessAuthenticatedUserId } from "../identity/index.ts";

export const learnerCookieName = "learner_id";
const learnerCookiePattern = /^[A-Za-z0-9_-]{32}$/;
/** The `learner_id` cookie lasts this long from the study request that set it, and is never renewed (decision 0016). */
export const learnerCookieMaximumAgeSeconds = 365 * 24 * 3600;

/** Who is studying: progress rows are keyed by `key` ("user:<id>" or "anonymous:<cookie>"). */
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

/** The anonymous learner's cookie value when it is well formed; anything else is treated as absent. */
export function readLearnerCookie(c: Context): string | null {
  return wellFormedLearnerCookie(getCookie(c, learnerCookieName));
}

/** A `learner_id` cookie's value when it is well formed, else `null` (as if absent). */
export function wellFormedLearnerCookie(value: string | undefined): string | null {
  return value !== undefined && learnerCookiePattern.test(value) ? value : null;
}

/**
 * The learner of this request: the signed-in user, or the anonymous learner of the `learner_id` cookie, which is
 * created (HttpOnly, SameSite=Lax, one year) on the first study request that needs it.
 */
export async function resolveLearner(c: Context, secureCookies: boolean): Promise<Learner> {
  const user = await getAuthenticatedUser(c);
  if (user) {
    return signedInLearner(user.id);
  }
  let cookie = readLearnerCookie(c);
  if (cookie === null) {
    cookie = randomBytes(24).toString("base64url");
    setCookie(c, learnerCookieName, cookie, { path: "/", httpOnly: true, sameSite: "Lax", secure: secureCookies, maxAge: learnerCookieMaximumAgeSeconds });
  }
  return anonymousLearner(cookie);
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
 * const [learner, group] = await readAsLearner(c, secureCookies, (learner) => loadVisibleGroup(database, groupId, learner));
 */
export async function readAsLearner<Value>(c: Context, secureCookies: boolean, read: (learner: Learner) => Promise<Value>): Promise<[Learner, Value]> {
  const readFor = startForGuessedUser(c, (userId) => read(signedInLearner(userId)));
  const learner = await resolveLearner(c, secureCookies);
  return [learner, await (readFor(learner.kind === "signed-in" ? learner.userId : null) ?? read(learner))];
}

export function clearLearnerCookie(c: Context, secureCookies: boolean): void {
  deleteCookie(c, learnerCookieName, { path: "/", httpOnly: true, sameSite: "Lax", secure: secureCookies });
}
