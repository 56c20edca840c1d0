// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import {
  WebAuthnNoCredentialError,
  WebAuthnUnsupportedError,
  createWebAuthnCredential,
  getWebAuthnCredential,
  isWebAuthnCancellation,
  isWebAuthnSupported,
  type WebAuthnEnvironment,
} from "./webauthn.ts";

const creationOptions = { publicKey: { challenge: "Y2hhbGxlbmdl", user: { id: "dXNlcg", name: "ada" } } };
const requestOptions = { publicKey: { challenge: "Y2hhbGxlbmdl", rpId: "localhost" } };
const credentialJson = { id: "cred", rawId: "cred", type: "public-key", response: { clientDataJSON: "e30" } };

function createFakeEnvironment(answer: Credential | null = { toJSON: () => credentialJson } as unknown as Credential) {
  const parsedCreation = { parsed: "creation" } as unknown as PublicKeyCredentialCreationOptions;
  const parsedRequest = { parsed: "request" } as unknown as PublicKeyCredentialRequestOptions;
  const environment = {
    credentials: { create: vi.fn(async () => answer), get: vi.fn(async () => answer) },
    PublicKeyCredential: {
      parseCreationOptionsFromJSON: vi.fn(() => parsedCreation),
      parseRequestOptionsFromJSON: vi.fn(() => parsedRequest),
    },
  } satisfies WebAuthnEnvironment;
  return { environment, parsedCreation, parsedRequest };
}

describe("given the WebAuthn helpers", () => {
  it("parses the creation options, creates the credential and returns its JSON", async () => {
    const { environment, parsedCreation } = createFakeEnvironment();
    const credential = await createWebAuthnCredential(creationOptions, environment);
    expect(environment.PublicKeyCredential.parseCreationOptionsFromJSON).toHaveBeenCalledWith(creationOptions.publicKey);
    expect(environment.credentials.create).toHaveBeenCalledWith({ publicKey: parsedCreation });
    expect(credential).toEqual(credentialJson);
  });

  it("parses the request options, gets an assertion and returns its JSON", async () => {
    const { environment, parsedRequest } = createFakeEnvironment();
    const credential = await getWebAuthnCredential(requestOptions, environment);
    expect(environment.PublicKeyCredential.parseRequestOptionsFromJSON).toHaveBeenCalledWith(requestOptions.publicKey);
    expect(environment.credentials.get).toHaveBeenCalledWith({ publicKey: parsedRequest });
    expect(credential).toEqual(credentialJson);
  });

  it("passes on the browser's rejection, recognised as a cancellation", async () => {
    const { environment } = createFakeEnvironment();
    const cancelled = Object.assign(new Error("The operation either timed out or was not allowed."), { name: "NotAllowedError" });
    environment.credentials.get.mockRejectedValueOnce(cancelled);
    const error: unknown = await getWebAuthnCredential(requestOptions, environment).catch((caught: unknown) => caught);
    expect(error).toBe(cancelled);
    expect(isWebAuthnCancellation(error)).toBe(true);
    expect(isWebAuthnCancellation(new Error("other"))).toBe(false);
  });

  it("throws when no credential comes back", async () => {
    const { environment } = createFakeEnvironment(null);
    await expect(createWebAuthnCredential(creationOptions, environment)).rejects.toBeInstanceOf(WebAuthnNoCredentialError);
  });

  it("throws when the credential cannot serialize itself", async () => {
    const { environment } = createFakeEnvironment({} as Credential);
    await expect(getWebAuthnCredential(requestOptions, environment)).rejects.toBeInstanceOf(WebAuthnUnsupportedError);
  });

  it("says unsupported, and throws, without WebAuthn", async () => {
    expect(isWebAuthnSupported(undefined)).toBe(false);
    expect(isWebAuthnSupported(createFakeEnvironment().environment)).toBe(true);
    await expect(createWebAuthnCredential(creationOptions, undefined)).rejects.toBeInstanceOf(WebAuthnUnsupportedError);
  });
});
