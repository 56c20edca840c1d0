import type {
  AllauthBadRequestResponse,
  AllauthConflictResponse,
  AllauthErrorItem,
  AllauthForbiddenResponse,
  AllauthNotFoundResponse,
  AllauthTooManyRequestsResponse,
  AuthenticationResponse,
  NotAuthenticatedResponse,
  ReauthenticationRequiredResponse,
  SessionGoneResponse,
} from "./schemas.ts";

/** Every answer of allauth that is not a success: the status is data, not an exception. */
export type AllauthFailureResponse =
  | AllauthBadRequestResponse
  | NotAuthenticatedResponse
  | ReauthenticationRequiredResponse
  | AllauthForbiddenResponse
  | AllauthNotFoundResponse
  | AllauthConflictResponse
  | SessionGoneResponse
  | AllauthTooManyRequestsResponse;

/** The statuses allauth answers with, and that the client returns instead of throwing. */
export type AllauthStatus = 200 | AllauthFailureResponse["status"];

/**
 * The answer of one client call, discriminated on `status`: `TSuccess` for 200, otherwise 400 (`errors`),
 * 401 (flows, or reauthentication when `meta.is_authenticated` is true), 403, 404, 409, 410 or 429.
 *
 * @example
 * const result = await client.login({ email, password });
 * if (result.status === 200) showWelcome(result.data.user.display);
 * else if (result.status === 400) showErrors(result.errors);
 */
export type AllauthResult<TSuccess extends { status: 200 }> = TSuccess | AllauthFailureResponse;

/**
 * Whether a call answered 200; narrows the result to its success type.
 *
 * @example
 * const result = await client.listEmailAddresses();
 * if (isSuccess(result)) render(result.data);
 */
export function isSuccess<TSuccess extends { status: 200 }>(
  result: AllauthResult<TSuccess>,
): result is TSuccess {
  return result.status === 200;
}

/**
 * Whether an answer says who is signed in (200 authenticated, 401, 410), so it can feed the flow-event engine.
 *
 * @example
 * const result = await client.verifyEmail({ key });
 * if (isAuthenticationResponse(result)) store.getState().receiveAuthenticationResponse(result);
 */
export function isAuthenticationResponse(result: { status: number; meta?: unknown; data?: unknown }): result is AuthenticationResponse {
  if (result.status === 401 || result.status === 410) return true;
  if (result.status !== 200) return false;
  const meta = result.meta as { is_authenticated?: unknown } | undefined;
  const data = result.data as { user?: unknown; methods?: unknown } | undefined;
  return meta?.is_authenticated === true && data?.user !== undefined && Array.isArray(data.methods);
}

/** Errors grouped for a form: field errors under their `param`, the others in `general`. */
export interface ErrorsByParam {
  byParam: Record<string, string[]>;
  general: string[];
}

/**
 * Groups allauth's `errors` for a form: show `byParam[field]` under each field and `general` above the form.
 *
 * @example
 * const { byParam, general } = errorsByParam(result.status === 400 ? result.errors : undefined);
 * byParam.password?.[0]; // "The email address and/or password you specified are not correct."
 */
export function errorsByParam(errors: readonly AllauthErrorItem[] | undefined): ErrorsByParam {
  const grouped: ErrorsByParam = { byParam: {}, general: [] };
  for (const error of errors ?? []) {
    if (error.param === undefined) {
      grouped.general.push(error.message);
    } else {
      (grouped.byParam[error.param] ??= []).push(error.message);
    }
  }
  return grouped;
}
