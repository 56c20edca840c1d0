import type { WebAuthnCreationOptionsJson, WebAuthnRequestOptionsJson } from "./schemas.ts";

/** A `PublicKeyCredential` serialized by its `toJSON()` (base64url fields): the `credential` allauth expects. */
export type WebAuthnCredentialJson = Record<string, unknown>;

/** What the helpers need from the browser; inject fakes in tests. */
export interface WebAuthnEnvironment {
  credentials: {
    create(options: CredentialCreationOptions): Promise<Credential | null>;
    get(options: CredentialRequestOptions): Promise<Credential | null>;
  };
  PublicKeyCredential: {
    parseCreationOptionsFromJSON(options: never): PublicKeyCredentialCreationOptions;
    parseRequestOptionsFromJSON(options: never): PublicKeyCredentialRequestOptions;
  };
}

/** Thrown when the browser has no WebAuthn or lacks its JSON serialization (`parse…OptionsFromJSON`, `toJSON`). */
export class WebAuthnUnsupportedError extends Error {
  override readonly name = "WebAuthnUnsupportedError";
  constructor(message = "This browser does not support passkeys or security keys.") {
    super(message);
  }
}

/** Thrown when the browser answered without a credential (no authenticator chosen). */
export class WebAuthnNoCredentialError extends Error {
  override readonly name = "WebAuthnNoCredentialError";
  constructor(message = "No credential was returned by the browser.") {
    super(message);
  }
}

/** The browser's WebAuthn, or undefined (server rendering, old browsers, insecure origins). */
export function findBrowserWebAuthnEnvironment(): WebAuthnEnvironment | undefined {
  const publicKeyCredential = (globalThis as { PublicKeyCredential?: Partial<WebAuthnEnvironment["PublicKeyCredential"]> })
    .PublicKeyCredential;
  const credentials = (globalThis as { navigator?: { credentials?: WebAuthnEnvironment["credentials"] } }).navigator
    ?.credentials;
  if (
    !publicKeyCredential ||
    !credentials ||
    typeof publicKeyCredential.parseCreationOptionsFromJSON !== "function" ||
    typeof publicKeyCredential.parseRequestOptionsFromJSON !== "function"
  ) {
    return undefined;
  }
  return { credentials, PublicKeyCredential: publicKeyCredential as WebAuthnEnvironment["PublicKeyCredential"] };
}

/** Whether passkeys and security keys can be used here (with the browser's JSON serialization). */
export function isWebAuthnSupported(environment: WebAuthnEnvironment | undefined = findBrowserWebAuthnEnvironment()): boolean {
  return environment !== undefined;
}

function requireEnvironment(environment: WebAuthnEnvironment | undefined): WebAuthnEnvironment {
  if (!environment) throw new WebAuthnUnsupportedError();
  return environment;
}

function serializeCredential(credential: Credential | null): WebAuthnCredentialJson {
  if (credential === null) throw new WebAuthnNoCredentialError();
  const toJSON = (credential as { toJSON?: () => unknown }).toJSON;
  if (typeof toJSON !== "function") throw new WebAuthnUnsupportedError();
  return toJSON.call(credential) as WebAuthnCredentialJson;
}

/**
 * Creates a credential from allauth's `creation_options` (`{ publicKey }`, JSON) and returns its JSON, the
 * `credential` to send back. Rejections of `navigator.credentials.create` (for instance a `NotAllowedError` when the
 * user cancels) are passed on.
 *
 * @example
 * const options = await client.getWebAuthnCreationOptions();
 * if (options.status === 200) {
 *   const credential = await createWebAuthnCredential(options.data.creation_options);
 *   await client.addWebAuthnAuthenticator({ name: "YubiKey", credential });
 * }
 */
export async function createWebAuthnCredential(
  creationOptions: WebAuthnCreationOptionsJson,
  environment: WebAuthnEnvironment | undefined = findBrowserWebAuthnEnvironment(),
): Promise<WebAuthnCredentialJson> {
  const webAuthn = requireEnvironment(environment);
  const publicKey = webAuthn.PublicKeyCredential.parseCreationOptionsFromJSON(creationOptions.publicKey as never);
  return serializeCredential(await webAuthn.credentials.create({ publicKey }));
}

/**
 * Asks for an assertion from allauth's `request_options` (`{ publicKey }`, JSON) and returns its JSON.
 *
 * @example
 * const options = await client.getWebAuthnLoginOptions();
 * if (options.status === 200) await client.loginWithWebAuthn({ credential: await getWebAuthnCredential(options.data.request_options) });
 */
export async function getWebAuthnCredential(
  requestOptions: WebAuthnRequestOptionsJson,
  environment: WebAuthnEnvironment | undefined = findBrowserWebAuthnEnvironment(),
): Promise<WebAuthnCredentialJson> {
  const webAuthn = requireEnvironment(environment);
  const publicKey = webAuthn.PublicKeyCredential.parseRequestOptionsFromJSON(requestOptions.publicKey as never);
  return serializeCredential(await webAuthn.credentials.get({ publicKey }));
}

/** Whether an error of the helpers or of the browser means the user cancelled or the request timed out. */
export function isWebAuthnCancellation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "NotAllowedError";
}
