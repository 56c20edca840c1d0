import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { getAuthenticatedUser } from "../identity/index.ts";

export const learnerCookieName = "learner_id";
const learnerCookiePattern = /^[A-Za-z0-9_-]{32}$/;
const learnerCookieMaximumAgeSeconds = 365 * 24 * 3600;

/** Who is studying: progress rows are keyed by `key` ("user:<id>" or "anonymous:<cookie>"). */
export type Learner =
  | { kind: "signed-in"; key: string; userId: string }
  | { kind: "anonymous"; key: string; cookie: string };

export function userLearnerKey(userId: string): string {
  return `user:${userId}`;
}

export function anonymousLearnerKey(cookie: string): string {
  return `anonymous:${cookie}`;
}

/** The anonymous learner's cookie value when it is well formed; anything else is treated as absent. */
export function readLearnerCookie(c: Context): string | null {
  const value = getCookie(c, learnerCookieName);
  return value !== undefined && learnerCookiePattern.test(value) ? value : null;
}

/**
 * The learner of this request: the signed-in user, or the anonymous learner of the `learner_id` cookie, which is
 * created (HttpOnly, SameSite=Lax, one year) on the first study request that needs it.
 */
export async function resolveLearner(c: Context, secureCookies: boolean): Promise<Learner> {
  const user = await getAuthenticatedUser(c);
  if (user) {
    return { kind: "signed-in", key: userLearnerKey(user.id), userId: user.id };
  }
  let cookie = readLearnerCookie(c);
  if (cookie === null) {
    cookie = randomBytes(24).toString("base64url");
    setCookie(c, learnerCookieName, cookie, { path: "/", httpOnly: true, sameSite: "Lax", secure: secureCookies, maxAge: learnerCookieMaximumAgeSeconds });
  }
  return { kind: "anonymous", key: anonymousLearnerKey(cookie), cookie };
}

export function clearLearnerCookie(c: Context, secureCookies: boolean): void {
  deleteCookie(c, learnerCookieName, { path: "/", httpOnly: true, sameSite: "Lax", secure: secureCookies });
}
