import ky from "ky";
import * as v from "valibot";
import {
  createMemorySessionTokenStorage,
  findBrowserSessionStorage,
  readCsrfTokenFromDocumentCookie,
  type SessionTokenStorage,
} from "./browser-environment.ts";
import { AllauthNetworkError, AllauthUnexpectedResponseError } from "./errors.ts";
import { isAuthenticationResponse, type AllauthResult } from "./result.ts";
import type { WebAuthnCredentialJson } from "./webauthn.ts";
import {
  authenticatedResponseSchema,
  badRequestResponseSchema,
  configurationResponseSchema,
  conflictResponseSchema,
  emailAddressesResponseSchema,
  emailVerificationInfoResponseSchema,
  forbiddenResponseSchema,
  notAuthenticatedResponseSchema,
  notFoundResponseSchema,
  passwordResetKeyInfoResponseSchema,
  providerAccountsResponseSchema,
  providerSignupResponseSchema,
  reauthenticationRequiredResponseSchema,
  sessionGoneResponseSchema,
  statusOkResponseSchema,
  tooManyRequestsResponseSchema,
  userSessionsResponseSchema,
  authenticatorsResponseSchema,
  recoveryCodesResponseSchema,
  totpAuthenticatorResponseSchema,
  webAuthnAuthenticatorResponseSchema,
  webAuthnCreationOptionsResponseSchema,
  webAuthnRequestOptionsResponseSchema,
  type AuthenticatorsResponse,
  type RecoveryCodesResponse,
  type TotpAuthenticatorResponse,
  type WebAuthnAuthenticator,
  type WebAuthnAuthenticatorResponse,
  type WebAuthnCreationOptionsResponse,
  type WebAuthnRequestOptionsResponse,
  type AuthenticatedResponse,
  type AuthenticationResponse,
  type ConfigurationResponse,
  type EmailAddressesResponse,
  type EmailVerificationInfoResponse,
  type PasswordResetKeyInfoResponse,
  type ProviderAccount,
  type ProviderAccountsResponse,
  type ProviderSignupResponse,
  type StatusOkResponse,
  type UserSessionsResponse,
} from "./schemas.ts";

/** `"browser"`: cookie session with CSRF. `"app"`: a session token sent as `X-Session-Token`. */
export type AllauthClientType = "browser" | "app";

export interface AllauthClientOptions {
  /** Where allauth's headless URLs are mounted, e.g. `"/_allauth"` or `"https://api.example.com/_allauth"`. */
  baseUrl: string;
  clientType: AllauthClientType;
  /** Defaults to `globalThis.fetch`, looked up at each call. */
  fetch?: typeof fetch;
  /** Browser mode: returns the CSRF token. Defaults to reading the `csrftoken` cookie from `document.cookie`. */
  readCsrfToken?: () => string | undefined;
  /** App mode: where the session token lives. Defaults to `sessionStorage`, else memory. */
  sessionTokenStorage?: SessionTokenStorage;
  /** App mode: the storage key of the session token. Defaults to `"sessionToken"` (as allauth's example SPA). */
  sessionTokenStorageKey?: string;
  /** Abandon a call after this long (it then throws `AllauthNetworkError`). Defaults to 10 000; `false` waits forever. */
  timeoutInMilliseconds?: number | false;
}

export type AllauthHttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A call to any headless endpoint, for endpoints this client has no method for yet. */
export interface AllauthRequest<TSuccess extends { status: 200 }> {
  method: AllauthHttpMethod;
  /** Relative to `{baseUrl}/{clientType}/v1`, e.g. `"auth/2fa/authenticate"`. */
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The schema of the 200 answer; the other statuses use the shared failure schemas. */
  successSchema: v.GenericSchema<unknown, TSuccess>;
}

/** The credentials of `POST auth/login`: one identifier (per the server's `login_methods`) and the password. */
export type LoginCredentials =
  | { email: string; password: string }
  | { username: string; password: string }
  | { phone: string; password: string };

/** The fields of `POST auth/signup`; which are required depends on the server's `ACCOUNT_SIGNUP_FIELDS`. */
export interface SignupFields {
  email?: string;
  username?: string;
  phone?: string;
  password?: string;
}

/** What a page needs to start a third-party login: a form POST (a top-level navigation, not a fetch). */
export interface ProviderRedirectForm {
  action: string;
  method: "POST";
  fields: { provider: string; process: "login" | "connect"; callback_url: string; csrfmiddlewaretoken: string };
}

/** Listener of every answer that says who is signed in. */
export type AuthenticationResponseListener = (response: AuthenticationResponse) => void;

/** A typed client of django-allauth's headless API v1. Create one with `createAllauthClient`. */
export interface AllauthClient {
  readonly clientType: AllauthClientType;
  /** `{baseUrl}/{clientType}/v1`. */
  readonly apiUrl: string;

  /** `GET config`: the server's settings (signup open, login by code, providers, MFA types…). */
  getConfiguration(): Promise<AllauthResult<ConfigurationResponse>>;
  /** `GET auth/session`: 200 signed in, 401 signed out (with a pending flow if any), 410 token gone (app). */
  getAuthenticationStatus(): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `DELETE auth/session`: always answers 401 with fresh flows. */
  logout(): Promise<AllauthResult<AuthenticatedResponse>>;
  login(credentials: LoginCredentials): Promise<AllauthResult<AuthenticatedResponse>>;
  signup(fields: SignupFields): Promise<AllauthResult<AuthenticatedResponse>>;
  reauthenticate(input: { password: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** Answers 401 with a pending `login_by_code` flow (also for unknown emails). */
  requestLoginCode(input: { email: string } | { phone: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  confirmLoginCode(input: { code: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `POST auth/code/resend`: 200, or 409 when no code is pending or the resend quota is used up. */
  resendLoginCode(): Promise<AllauthResult<StatusOkResponse>>;
  /** Link mode answers 200; by-code mode answers 401 with a pending `password_reset_by_code` flow. */
  requestPasswordReset(input: { email: string }): Promise<AllauthResult<StatusOkResponse>>;
  /** `GET auth/password/reset` with the key (or code) in `X-Password-Reset-Key`. */
  getPasswordResetKeyInfo(key: string): Promise<AllauthResult<PasswordResetKeyInfoResponse>>;
  resetPassword(input: { key: string; password: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `GET auth/email/verify` with the key (or code) in `X-Email-Verification-Key`. */
  getEmailVerificationKeyInfo(key: string): Promise<AllauthResult<EmailVerificationInfoResponse>>;
  /** `POST auth/email/verify`; a code is sent as `key` too. Success is 200 or 401 (verified, not signed in). */
  verifyEmail(input: { key: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  resendEmailVerification(): Promise<AllauthResult<StatusOkResponse>>;
  listEmailAddresses(): Promise<AllauthResult<EmailAddressesResponse>>;
  addEmailAddress(input: { email: string }): Promise<AllauthResult<EmailAddressesResponse>>;
  /** `PUT account/email`: resend the verification mail; 403 when it was not sent (cooldown). */
  requestEmailVerification(input: { email: string }): Promise<AllauthResult<StatusOkResponse>>;
  markEmailAddressAsPrimary(input: { email: string }): Promise<AllauthResult<EmailAddressesResponse>>;
  removeEmailAddress(input: { email: string }): Promise<AllauthResult<EmailAddressesResponse>>;
  /** Leave out `currentPassword` to set a first password (users without a usable one). */
  changePassword(input: { currentPassword?: string; newPassword: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  listSessions(): Promise<AllauthResult<UserSessionsResponse>>;
  /** Answers the remaining sessions, or 401 when the current session was among them. */
  endSessions(input: { sessionIds: ReadonlyArray<number | string> }): Promise<AllauthResult<UserSessionsResponse>>;
  /** `GET account/authenticators`: TOTP, recovery codes (counts only) and security keys. */
  listAuthenticators(): Promise<AllauthResult<AuthenticatorsResponse>>;
  /**
   * `GET account/authenticators/totp`: 200 when active; **404 with `meta: { secret, totp_url }`** when not (a result
   * to read with `totpSetupFromResult`); 409 `unverified_email`.
   */
  getTotpAuthenticator(): Promise<AllauthResult<TotpAuthenticatorResponse>>;
  /** `POST account/authenticators/totp {code}`: activates with a code of the secret last shown; 400 `incorrect_code`. */
  activateTotp(input: { code: string }): Promise<AllauthResult<TotpAuthenticatorResponse>>;
  /** `DELETE account/authenticators/totp`; 401 when a reauthentication is needed. */
  deactivateTotp(): Promise<AllauthResult<StatusOkResponse>>;
  /** `GET account/authenticators/recovery-codes`: the codes (`unused_codes`); 404 when there are none. */
  getRecoveryCodes(): Promise<AllauthResult<RecoveryCodesResponse>>;
  /** `POST account/authenticators/recovery-codes`: a fresh set; 400 without another authenticator. */
  regenerateRecoveryCodes(): Promise<AllauthResult<RecoveryCodesResponse>>;
  /** `GET account/authenticators/webauthn[?passwordless]`: `creation_options` to add a key (a passkey if passwordless). */
  getWebAuthnCreationOptions(input?: { passwordless?: boolean }): Promise<AllauthResult<WebAuthnCreationOptionsResponse>>;
  /** `POST account/authenticators/webauthn {name, credential}`. */
  addWebAuthnAuthenticator(input: { name?: string; credential: WebAuthnCredentialJson }): Promise<AllauthResult<WebAuthnAuthenticatorResponse>>;
  /** `PUT account/authenticators/webauthn {id, name}`: renames a key. */
  renameWebAuthnAuthenticator(input: { id: WebAuthnAuthenticator["id"]; name: string }): Promise<AllauthResult<WebAuthnAuthenticatorResponse>>;
  /** `DELETE account/authenticators/webauthn {authenticators}`. */
  deleteWebAuthnAuthenticators(input: { ids: ReadonlyArray<WebAuthnAuthenticator["id"]> }): Promise<AllauthResult<StatusOkResponse>>;
  /** `POST auth/2fa/authenticate {code}`: the second-factor step of a login (TOTP or recovery code). */
  authenticateWithCode(input: { code: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `POST auth/2fa/reauthenticate {code}`. */
  reauthenticateWithCode(input: { code: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `GET auth/webauthn/authenticate`: `request_options` for the second-factor step. */
  getWebAuthnAuthenticateOptions(): Promise<AllauthResult<WebAuthnRequestOptionsResponse>>;
  /** `POST auth/webauthn/authenticate {credential}`. */
  authenticateWithWebAuthn(input: { credential: WebAuthnCredentialJson }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `GET auth/webauthn/login`: `request_options` for a passkey login. */
  getWebAuthnLoginOptions(): Promise<AllauthResult<WebAuthnRequestOptionsResponse>>;
  /** `POST auth/webauthn/login {credential}`: 200 signed in, or 401 with a pending flow. */
  loginWithWebAuthn(input: { credential: WebAuthnCredentialJson }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `GET auth/webauthn/reauthenticate`: `request_options`. */
  getWebAuthnReauthenticateOptions(): Promise<AllauthResult<WebAuthnRequestOptionsResponse>>;
  /** `POST auth/webauthn/reauthenticate {credential}`. */
  reauthenticateWithWebAuthn(input: { credential: WebAuthnCredentialJson }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `POST auth/webauthn/signup {email}`: answers 401 with `verify_email` pending; 403 closed; 409 signed in. */
  signupWithPasskey(input: { email: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `GET auth/webauthn/signup`: `creation_options` once `mfa_signup_webauthn` is pending, else 409. */
  getWebAuthnSignupOptions(): Promise<AllauthResult<WebAuthnCreationOptionsResponse>>;
  /** `PUT auth/webauthn/signup {name, credential}`: 200 signed in. */
  completePasskeySignup(input: { name: string; credential: WebAuthnCredentialJson }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `GET auth/provider/signup`: the pending provider sign-up (addresses, account); 409 when none is pending. */
  getProviderSignup(): Promise<AllauthResult<ProviderSignupResponse>>;
  /**
   * `POST auth/provider/signup {email}`: ends a provider sign-up. 200 signed in; 401 with the next pending flow (such
   * as `verify_email`); 400 errors under `email` (`email_taken`…); 409 when no provider sign-up is pending.
   */
  providerSignup(input: { email: string }): Promise<AllauthResult<AuthenticatedResponse>>;
  /** `GET account/providers`: the third-party accounts connected to the signed-in user. */
  listProviderAccounts(): Promise<AllauthResult<ProviderAccountsResponse>>;
  /**
   * `DELETE account/providers {provider, account}`: the remaining accounts; 400 `account_not_found` or `no_password`
   * (the last way to sign in stays), 401 when a reauthentication is needed.
   */
  disconnectProviderAccount(input: {
    provider: ProviderAccount["provider"]["id"];
    account: ProviderAccount["uid"];
  }): Promise<AllauthResult<ProviderAccountsResponse>>;
  /** The form to POST (top-level navigation) to start a third-party login or connection; see `submitProviderRedirect`. */
  providerRedirectFormFields(input: {
    provider: string;
    process: "login" | "connect";
    callbackUrl: string;
  }): ProviderRedirectForm;

  /** Calls any endpoint with the same headers, token handling, parsing and notifications as the methods above. */
  request<TSuccess extends { status: 200 }>(request: AllauthRequest<TSuccess>): Promise<AllauthResult<TSuccess>>;
  /** Called with every authentication answer (200 signed in, 401, 410) of every call. Returns the unsubscribe. */
  subscribeToAuthChanges(listener: AuthenticationResponseListener): () => void;
  /** App mode: the stored session token, if any. */
  getSessionToken(): string | null;
  /** App mode: forget the stored session token. */
  forgetSessionToken(): void;
}

const DEFAULT_SESSION_TOKEN_STORAGE_KEY = "sessionToken";
const DEFAULT_TIMEOUT_IN_MILLISECONDS = 10_000;

/**
 * Creates a client of django-allauth's headless API (v1), in browser mode (cookie session and CSRF) or app mode
 * (session token in storage). Answers of allauth are returned, never thrown; see `AllauthResult`.
 *
 * @example
 * const client = createAllauthClient({ baseUrl: "/_allauth", clientType: "browser" });
 * const result = await client.login({ email: "ada@example.org", password: "correct horse" });
 * if (result.status === 200) console.info(`Signed in as ${result.data.user.display}`);
 */
export function createAllauthClient(options: AllauthClientOptions): AllauthClient {
  const clientType = options.clientType;
  const apiUrl = `${options.baseUrl.replace(/\/+$/, "")}/${clientType}/v1`;
  const readCsrfToken = options.readCsrfToken ?? (() => readCsrfTokenFromDocumentCookie());
  const sessionTokenStorageKey = options.sessionTokenStorageKey ?? DEFAULT_SESSION_TOKEN_STORAGE_KEY;
  let sessionTokenStorage: SessionTokenStorage | undefined = options.sessionTokenStorage;
  const listeners = new Set<AuthenticationResponseListener>();

  const http = ky.create({
    credentials: "include",
    throwHttpErrors: false,
    // allauth's 429 and 409 are answers to show, not to retry.
    retry: 0,
    timeout: options.timeoutInMilliseconds ?? DEFAULT_TIMEOUT_IN_MILLISECONDS,
    fetch: (input, init) => (options.fetch ?? globalThis.fetch)(input, init),
  });

  function getSessionTokenStorage(): SessionTokenStorage | undefined {
    if (clientType !== "app") return undefined;
    sessionTokenStorage ??= findBrowserSessionStorage() ?? createMemorySessionTokenStorage();
    return sessionTokenStorage;
  }

  function rememberSessionToken(body: unknown): void {
    const storage = getSessionTokenStorage();
    if (!storage || !isRecord(body)) return;
    if (body.status === 410) {
      storage.removeItem(sessionTokenStorageKey);
      return;
    }
    const sessionToken = isRecord(body.meta) ? body.meta.session_token : undefined;
    if (typeof sessionToken === "string" && sessionToken !== "") {
      storage.setItem(sessionTokenStorageKey, sessionToken);
    }
  }

  function notifyListeners(response: AuthenticationResponse): void {
    for (const listener of [...listeners]) {
      try {
        listener(response);
      } catch (error) {
        // One faulty listener must not turn the call's answer into a rejection for the caller.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  async function request<TSuccess extends { status: 200 }>(
    call: AllauthRequest<TSuccess>,
  ): Promise<AllauthResult<TSuccess>> {
    const path = call.path.replace(/^\/+/, "");
    const url = `${apiUrl}/${path}`;
    const method = call.method;
    const headers: Record<string, string> = { Accept: "application/json", ...call.headers };
    // allauth's example SPA sends no credentials to the configuration; in app mode a stale token would make it 410.
    if (path !== "config") {
      if (clientType === "browser") {
        const csrfToken = readCsrfToken();
        if (csrfToken) headers["X-CSRFToken"] = csrfToken;
      } else {
        const sessionToken = getSessionTokenStorage()?.getItem(sessionTokenStorageKey);
        if (sessionToken) headers["X-Session-Token"] = sessionToken;
      }
    }

    let responseText: string;
    let httpStatus: number;
    try {
      const response = await http(url, { method, headers, json: call.body });
      httpStatus = response.status;
      responseText = await response.text();
    } catch (cause) {
      throw new AllauthNetworkError({ method, url, cause });
    }

    let body: unknown;
    try {
      body = JSON.parse(responseText);
    } catch (cause) {
      throw new AllauthUnexpectedResponseError(describeNonJsonAnswer(method, url, httpStatus), {
        method,
        url,
        status: httpStatus,
        cause,
      });
    }

    rememberSessionToken(body);
    const result = parseAllauthAnswer(body, { method, url, httpStatus, successSchema: call.successSchema });
    if (isAuthenticationResponse(result)) notifyListeners(result);
    return result;
  }

  const post = <TSuccess extends { status: 200 }>(
    path: string,
    successSchema: v.GenericSchema<unknown, TSuccess>,
    body?: Record<string, unknown>,
  ) => request({ method: "POST", path, body, successSchema });

  return {
    clientType,
    apiUrl,
    getConfiguration: () => request({ method: "GET", path: "config", successSchema: configurationResponseSchema }),
    getAuthenticationStatus: () =>
      request({ method: "GET", path: "auth/session", successSchema: authenticatedResponseSchema }),
    logout: async () => {
      const result = await request({ method: "DELETE", path: "auth/session", successSchema: authenticatedResponseSchema });
      // The flushed session's token would only earn a 410 (read as a second logout) on the next call.
      if (result.status === 401) getSessionTokenStorage()?.removeItem(sessionTokenStorageKey);
      return result;
    },
    login: (credentials) => post("auth/login", authenticatedResponseSchema, { ...credentials }),
    signup: (fields) => post("auth/signup", authenticatedResponseSchema, { ...fields }),
    reauthenticate: ({ password }) => post("auth/reauthenticate", authenticatedResponseSchema, { password }),
    requestLoginCode: (input) => post("auth/code/request", authenticatedResponseSchema, { ...input }),
    confirmLoginCode: ({ code }) => post("auth/code/confirm", authenticatedResponseSchema, { code }),
    resendLoginCode: () => post("auth/code/resend", statusOkResponseSchema),
    requestPasswordReset: ({ email }) => post("auth/password/request", statusOkResponseSchema, { email }),
    getPasswordResetKeyInfo: (key) =>
      request({
        method: "GET",
        path: "auth/password/reset",
        headers: { "X-Password-Reset-Key": key },
        successSchema: passwordResetKeyInfoResponseSchema,
      }),
    resetPassword: ({ key, password }) => post("auth/password/reset", authenticatedResponseSchema, { key, password }),
    getEmailVerificationKeyInfo: (key) =>
      request({
        method: "GET",
        path: "auth/email/verify",
        headers: { "X-Email-Verification-Key": key },
        successSchema: emailVerificationInfoResponseSchema,
      }),
    verifyEmail: ({ key }) => post("auth/email/verify", authenticatedResponseSchema, { key }),
    resendEmailVerification: () => post("auth/email/verify/resend", statusOkResponseSchema),
    listEmailAddresses: () => request({ method: "GET", path: "account/email", successSchema: emailAddressesResponseSchema }),
    addEmailAddress: ({ email }) => post("account/email", emailAddressesResponseSchema, { email }),
    requestEmailVerification: ({ email }) =>
      request({ method: "PUT", path: "account/email", body: { email }, successSchema: statusOkResponseSchema }),
    markEmailAddressAsPrimary: ({ email }) =>
      request({
        method: "PATCH",
        path: "account/email",
        body: { email, primary: true },
        successSchema: emailAddressesResponseSchema,
      }),
    removeEmailAddress: ({ email }) =>
      request({ method: "DELETE", path: "account/email", body: { email }, successSchema: emailAddressesResponseSchema }),
    changePassword: ({ currentPassword, newPassword }) =>
      post(
        "account/password/change",
        authenticatedResponseSchema,
        currentPassword === undefined
          ? { new_password: newPassword }
          : { current_password: currentPassword, new_password: newPassword },
      ),
    listSessions: () => request({ method: "GET", path: "auth/sessions", successSchema: userSessionsResponseSchema }),
    endSessions: ({ sessionIds }) =>
      request({
        method: "DELETE",
        path: "auth/sessions",
        body: { sessions: [...sessionIds] },
        successSchema: userSessionsResponseSchema,
      }),
    listAuthenticators: () =>
      request({ method: "GET", path: "account/authenticators", successSchema: authenticatorsResponseSchema }),
    getTotpAuthenticator: () =>
      request({ method: "GET", path: "account/authenticators/totp", successSchema: totpAuthenticatorResponseSchema }),
    activateTotp: ({ code }) => post("account/authenticators/totp", totpAuthenticatorResponseSchema, { code }),
    deactivateTotp: () =>
      request({ method: "DELETE", path: "account/authenticators/totp", successSchema: statusOkResponseSchema }),
    getRecoveryCodes: () =>
      request({ method: "GET", path: "account/authenticators/recovery-codes", successSchema: recoveryCodesResponseSchema }),
    regenerateRecoveryCodes: () => post("account/authenticators/recovery-codes", recoveryCodesResponseSchema),
    getWebAuthnCreationOptions: (input) =>
      request({
        method: "GET",
        // allauth only checks that the parameter is present.
        path: input?.passwordless ? "account/authenticators/webauthn?passwordless" : "account/authenticators/webauthn",
        successSchema: webAuthnCreationOptionsResponseSchema,
      }),
    addWebAuthnAuthenticator: ({ name, credential }) =>
      post(
        "account/authenticators/webauthn",
        webAuthnAuthenticatorResponseSchema,
        name === undefined ? { credential } : { name, credential },
      ),
    renameWebAuthnAuthenticator: ({ id, name }) =>
      request({
        method: "PUT",
        path: "account/authenticators/webauthn",
        body: { id, name },
        successSchema: webAuthnAuthenticatorResponseSchema,
      }),
    deleteWebAuthnAuthenticators: ({ ids }) =>
      request({
        method: "DELETE",
        path: "account/authenticators/webauthn",
        body: { authenticators: [...ids] },
        successSchema: statusOkResponseSchema,
      }),
    authenticateWithCode: ({ code }) => post("auth/2fa/authenticate", authenticatedResponseSchema, { code }),
    reauthenticateWithCode: ({ code }) => post("auth/2fa/reauthenticate", authenticatedResponseSchema, { code }),
    getWebAuthnAuthenticateOptions: () =>
      request({ method: "GET", path: "auth/webauthn/authenticate", successSchema: webAuthnRequestOptionsResponseSchema }),
    authenticateWithWebAuthn: ({ credential }) =>
      post("auth/webauthn/authenticate", authenticatedResponseSchema, { credential }),
    getWebAuthnLoginOptions: () =>
      request({ method: "GET", path: "auth/webauthn/login", successSchema: webAuthnRequestOptionsResponseSchema }),
    loginWithWebAuthn: ({ credential }) => post("auth/webauthn/login", authenticatedResponseSchema, { credential }),
    getWebAuthnReauthenticateOptions: () =>
      request({ method: "GET", path: "auth/webauthn/reauthenticate", successSchema: webAuthnRequestOptionsResponseSchema }),
    reauthenticateWithWebAuthn: ({ credential }) =>
      post("auth/webauthn/reauthenticate", authenticatedResponseSchema, { credential }),
    signupWithPasskey: ({ email }) => post("auth/webauthn/signup", authenticatedResponseSchema, { email }),
    getWebAuthnSignupOptions: () =>
      request({ method: "GET", path: "auth/webauthn/signup", successSchema: webAuthnCreationOptionsResponseSchema }),
    completePasskeySignup: ({ name, credential }) =>
      request({
        method: "PUT",
        path: "auth/webauthn/signup",
        body: { name, credential },
        successSchema: authenticatedResponseSchema,
      }),
    getProviderSignup: () =>
      request({ method: "GET", path: "auth/provider/signup", successSchema: providerSignupResponseSchema }),
    providerSignup: ({ email }) => post("auth/provider/signup", authenticatedResponseSchema, { email }),
    listProviderAccounts: () =>
      request({ method: "GET", path: "account/providers", successSchema: providerAccountsResponseSchema }),
    disconnectProviderAccount: ({ provider, account }) =>
      request({
        method: "DELETE",
        path: "account/providers",
        body: { provider, account },
        successSchema: providerAccountsResponseSchema,
      }),
    providerRedirectFormFields: ({ provider, process, callbackUrl }) => ({
      action: `${apiUrl}/auth/provider/redirect`,
      method: "POST",
      fields: { provider, process, callback_url: callbackUrl, csrfmiddlewaretoken: readCsrfToken() ?? "" },
    }),
    request,
    subscribeToAuthChanges: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSessionToken: () => getSessionTokenStorage()?.getItem(sessionTokenStorageKey) ?? null,
    forgetSessionToken: () => getSessionTokenStorage()?.removeItem(sessionTokenStorageKey),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeNonJsonAnswer(method: string, url: string, status: number): string {
  const hint =
    status === 403
      ? " A 403 page in HTML is usually Django's CSRF failure: send the csrftoken cookie's value as X-CSRFToken, and list this site's origin in CSRF_TRUSTED_ORIGINS."
      : status === 404
        ? " Check baseUrl: it should be where allauth.headless.urls is mounted, such as /_allauth."
        : "";
  return `${method} ${url} answered status ${status} with a body that is not JSON, so it is not django-allauth's headless API.${hint}`;
}

const failureSchemasByStatus = {
  400: badRequestResponseSchema,
  403: forbiddenResponseSchema,
  404: notFoundResponseSchema,
  409: conflictResponseSchema,
  410: sessionGoneResponseSchema,
  429: tooManyRequestsResponseSchema,
} as const;

function parseAllauthAnswer<TSuccess extends { status: 200 }>(
  body: unknown,
  context: { method: string; url: string; httpStatus: number; successSchema: v.GenericSchema<unknown, TSuccess> },
): AllauthResult<TSuccess> {
  const { method, url, httpStatus } = context;
  if (!isRecord(body) || typeof body.status !== "number") {
    throw new AllauthUnexpectedResponseError(
      `${method} ${url} answered status ${httpStatus} with JSON that has no numeric "status", so it is not an allauth envelope.`,
      { method, url, status: httpStatus },
    );
  }
  const status = body.status;
  const schema: v.GenericSchema<unknown, AllauthResult<TSuccess>> | undefined =
    status === 200
      ? context.successSchema
      : status === 401
        ? isRecord(body.meta) && body.meta.is_authenticated === true
          ? reauthenticationRequiredResponseSchema
          : notAuthenticatedResponseSchema
        : failureSchemasByStatus[status as keyof typeof failureSchemasByStatus];
  if (!schema) {
    throw new AllauthUnexpectedResponseError(
      `${method} ${url} answered status ${status}, which the client does not handle (allauth answers 200, 400, 401, 403, 404, 409, 410 or 429).`,
      { method, url, status },
    );
  }
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) {
    const issues = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? "(body)"}: ${issue.message}`);
    throw new AllauthUnexpectedResponseError(
      `${method} ${url} answered status ${status} with a body that does not match the allauth schema (${issues.join("; ")}).`,
      { method, url, status, issues },
    );
  }
  return parsed.output;
}
