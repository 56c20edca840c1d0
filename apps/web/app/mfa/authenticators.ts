import type { AllauthClient, Authenticator, RecoveryCodesAuthenticator, TotpAuthenticator, WebAuthnAuthenticator } from "@atelier/auth";

/** What the two-factor overview and the security keys show: the user's authenticators, or that they failed to load. */
export type AuthenticatorsData = { state: "ready"; authenticators: Authenticator[] } | { state: "failed" };

/**
 * `GET account/authenticators`: the `clientLoader` of /account/2fa and /account/2fa/webauthn, a plain function so
 * tests call it with a fake client. A failure is the page's alert, not the site's error page.
 */
export async function loadAuthenticators(client: Pick<AllauthClient, "listAuthenticators">): Promise<AuthenticatorsData> {
  try {
    const result = await client.listAuthenticators();
    return result.status === 200 ? { state: "ready", authenticators: result.data } : { state: "failed" };
  } catch (error) {
    console.error(error);
    return { state: "failed" };
  }
}

export function findTotp(authenticators: readonly Authenticator[]): TotpAuthenticator | undefined {
  return authenticators.find((authenticator): authenticator is TotpAuthenticator => authenticator.type === "totp");
}

export function findRecoveryCodes(authenticators: readonly Authenticator[]): RecoveryCodesAuthenticator | undefined {
  return authenticators.find((authenticator): authenticator is RecoveryCodesAuthenticator => authenticator.type === "recovery_codes");
}

export function securityKeysOf(authenticators: readonly Authenticator[]): WebAuthnAuthenticator[] {
  return authenticators.filter((authenticator): authenticator is WebAuthnAuthenticator => authenticator.type === "webauthn");
}
