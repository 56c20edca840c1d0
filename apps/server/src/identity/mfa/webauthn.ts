import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { MfaConfiguration } from "../../config.ts";
import type { StoredAuthenticator, WebAuthnData } from "./authenticator-store.ts";

type WebAuthnAuthenticator = Extract<StoredAuthenticator, { type: "webauthn" }>;

function descriptorsOf(credentials: readonly WebAuthnAuthenticator[]) {
  return credentials.map((credential) => ({ id: credential.credentialId ?? "", transports: credential.data.transports as AuthenticatorTransport[] }));
}

/**
 * WebAuthn ceremonies through `@simplewebauthn/server`, with the relying party from configuration
 * (`WEBAUTHN_RP_ID`, `WEBAUTHN_RP_ORIGIN`). Verification failures return `null`, never throw.
 *
 * @example
 * const ceremonies = createWebAuthnCeremonies(configuration.identity.mfa);
 */
export function createWebAuthnCeremonies(settings: MfaConfiguration) {
  return {
    /** Creation options; passkeys (`passwordless`) must be discoverable and verify the user. */
    async registrationOptions(input: { userId: string; userName: string; existing: readonly WebAuthnAuthenticator[]; passwordless: boolean }) {
      return generateRegistrationOptions({
        rpName: settings.relyingPartyName,
        rpID: settings.relyingPartyId,
        userName: input.userName,
        userID: new TextEncoder().encode(input.userId),
        userDisplayName: input.userName,
        attestationType: "none",
        excludeCredentials: descriptorsOf(input.existing),
        authenticatorSelection: input.passwordless ? { residentKey: "required", requireResidentKey: true, userVerification: "required" } : { residentKey: "discouraged", userVerification: "preferred" },
      });
    },

    async verifyRegistration(input: { credential: unknown; challenge: string; passwordless: boolean; userId: string }): Promise<{ credentialId: string; data: WebAuthnData } | null> {
      try {
        const result = await verifyRegistrationResponse({
          response: input.credential as RegistrationResponseJSON,
          expectedChallenge: input.challenge,
          expectedOrigin: settings.relyingPartyOrigin,
          expectedRPID: settings.relyingPartyId,
          requireUserVerification: input.passwordless,
        });
        if (!result.verified) {
          return null;
        }
        const { credential } = result.registrationInfo;
        return {
          credentialId: credential.id,
          data: {
            publicKey: Buffer.from(credential.publicKey).toString("base64url"),
            counter: credential.counter,
            transports: credential.transports ?? (input.credential as RegistrationResponseJSON).response?.transports ?? [],
            passwordless: input.passwordless ? true : null,
            userHandle: Buffer.from(input.userId).toString("base64url"),
          },
        };
      } catch {
        return null;
      }
    },

    /** Request options: with `allowed` credentials for 2FA and reauthentication, none (discoverable) for passkey login. */
    async authenticationOptions(input: { allowed: readonly WebAuthnAuthenticator[] | null; passwordless: boolean }) {
      return generateAuthenticationOptions({
        rpID: settings.relyingPartyId,
        allowCredentials: input.allowed ? descriptorsOf(input.allowed) : [],
        userVerification: input.passwordless ? "required" : "preferred",
      });
    },

    /** Verifies an assertion against the stored credential (signature, challenge, origin, rp id, counter). */
    async verifyAuthentication(input: { credential: unknown; challenge: string; stored: WebAuthnAuthenticator; passwordless: boolean }): Promise<{ newCounter: number } | null> {
      try {
        const result = await verifyAuthenticationResponse({
          response: input.credential as AuthenticationResponseJSON,
          expectedChallenge: input.challenge,
          expectedOrigin: settings.relyingPartyOrigin,
          expectedRPID: settings.relyingPartyId,
          credential: {
            id: input.stored.credentialId ?? "",
            publicKey: new Uint8Array(Buffer.from(input.stored.data.publicKey, "base64url")),
            counter: input.stored.data.counter,
            transports: input.stored.data.transports as AuthenticatorTransport[],
          },
          requireUserVerification: input.passwordless,
        });
        return result.verified ? { newCounter: result.authenticationInfo.newCounter } : null;
      } catch {
        return null;
      }
    },
  };
}

/** The credential id an assertion or attestation names (`id`), if it has one. */
export function credentialIdOf(credential: unknown): string | null {
  const id = credential && typeof credential === "object" ? (credential as { id?: unknown }).id : undefined;
  return typeof id === "string" && id !== "" ? id : null;
}
