import type { AllauthResult } from "./result.ts";
import type { TotpAuthenticatorResponse } from "./schemas.ts";

/** What an authenticator app needs to be set up: the base32 secret and its `otpauth://` URL (for a QR code). */
export interface TotpSetup {
  secret: string;
  totpUrl: string;
}

/**
 * The TOTP secret of `GET account/authenticators/totp` when TOTP is not active yet: allauth answers 404 with
 * `meta: { secret, totp_url }`. Undefined for any other answer.
 *
 * @example
 * const result = await client.getTotpAuthenticator();
 * const setup = totpSetupFromResult(result); // { secret: "J6XB…", totpUrl: "otpauth://totp/…" }
 */
export function totpSetupFromResult(result: AllauthResult<TotpAuthenticatorResponse>): TotpSetup | undefined {
  if (result.status !== 404) return undefined;
  const secret = result.meta?.secret;
  const totpUrl = result.meta?.totp_url;
  return typeof secret === "string" && typeof totpUrl === "string" ? { secret, totpUrl } : undefined;
}
