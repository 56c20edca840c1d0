import * as OTPAuth from "otpauth";

/** The code an authenticator app shows at `at` for a TOTP secret as the server hands it out (base32, SHA-1, 6 digits, 30 s). */
export function totpCodeAt(secret: string, at: Date): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: at.getTime() });
}
