import type { AuthenticatorType, IdentityConfiguration } from "../config.ts";
import type { SerializedUser } from "./email-addresses.ts";
import { buildReauthenticationFlows, buildUnauthenticatedFlows, type AuthenticationRecord, type PendingState } from "./flows.ts";
import type { IdentityErrorItem } from "./identity-errors.ts";

/**
 * allauth's envelope: `status` mirrors the HTTP status; `data`, `meta` and `errors` only when present (API.md §1).
 * Every identity answer is built here, so the wire format lives in one place.
 */
export type IdentityEnvelope = {
  status: number;
  data?: unknown;
  meta?: Record<string, unknown>;
  errors?: IdentityErrorItem[];
};

/** `redirect`: answer with a 302 to this URL instead of JSON (the provider redirect and callback). */
export type IdentityResult = { status: number; body: IdentityEnvelope; redirect?: string };

export function redirectResult(location: string): IdentityResult {
  return { status: 302, body: { status: 302 }, redirect: location };
}

export function statusResult(status: number): IdentityResult {
  return { status, body: { status } };
}

export function dataResult(data: unknown, meta?: Record<string, unknown>): IdentityResult {
  return { status: 200, body: meta ? { status: 200, data, meta } : { status: 200, data } };
}

export function errorsResult(errors: readonly IdentityErrorItem[]): IdentityResult {
  return { status: 400, body: { status: 400, errors: [...errors] } };
}

/** 200: the session is signed in. */
export function authenticatedResult(user: SerializedUser, methods: readonly AuthenticationRecord[]): IdentityResult {
  return { status: 200, body: { status: 200, data: { user, methods: [...methods] }, meta: { is_authenticated: true } } };
}

/** 401: not signed in; `flows` says what can be done and which step is pending. */
export function unauthenticatedResult(settings: IdentityConfiguration, pending: PendingState): IdentityResult {
  return { status: 401, body: { status: 401, data: { flows: buildUnauthenticatedFlows(settings, pending) }, meta: { is_authenticated: false } } };
}

/** 401 for a signed-in user whose last authentication is too old for a sensitive action. */
export function reauthenticationRequiredResult(settings: IdentityConfiguration, user: SerializedUser, methods: readonly AuthenticationRecord[], authenticatorTypes: readonly AuthenticatorType[] = []): IdentityResult {
  return {
    status: 401,
    body: { status: 401, data: { user, methods: [...methods], flows: buildReauthenticationFlows(settings, user.has_usable_password, authenticatorTypes) }, meta: { is_authenticated: true } },
  };
}

/** 401 of a stage endpoint called while its stage is not pending; allauth's `UnauthorizedResponse` sends `is_authenticated: null`. */
export function stageNotPendingResult(settings: IdentityConfiguration, pending: PendingState): IdentityResult {
  return { status: 401, body: { status: 401, data: { flows: buildUnauthenticatedFlows(settings, pending) }, meta: { is_authenticated: null } } };
}

/** 410 (app clients only): the session token is unknown or expired. allauth sends `is_authenticated: null` here. */
export function sessionGoneResult(settings: IdentityConfiguration): IdentityResult {
  return { status: 410, body: { status: 410, data: { flows: buildUnauthenticatedFlows(settings, {}) }, meta: { is_authenticated: null } } };
}

/** allauth marks every answer as never cacheable. */
export const identityCacheHeaders = {
  "Cache-Control": "max-age=0, no-cache, no-store, must-revalidate, private",
  Expires: "Thu, 01 Jan 1970 00:00:00 GMT",
} as const;
