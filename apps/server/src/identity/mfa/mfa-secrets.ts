import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from "node:crypto";
import * as OTPAuth from "otpauth";

/** allauth's TOTP defaults (API.md §7): 30 s steps, 6 digits, HMAC-SHA1, only the current step, 160-bit secret. */
export const totpSettings = { period: 30, digits: 6, algorithm: "SHA1", secretBytes: 20, issuer: "Atelier" } as const;

/** allauth's recovery-code defaults: 10 codes of 8 digits, each single use. */
export const recoveryCodeSettings = { count: 10, digits: 8 } as const;

/**
 * Encrypts small secrets (TOTP secrets) with AES-256-GCM under a key derived from `SECRET_KEY` by HKDF-SHA256.
 * Format: `v1.<iv>.<tag>.<ciphertext>` in base64url. Changing `SECRET_KEY` makes stored TOTP secrets unreadable.
 *
 * @example
 * const box = createSecretBox(configuration.secretKey);
 * box.open(box.seal("JBSWY3DPEHPK3PXP")) // "JBSWY3DPEHPK3PXP"
 */
export function createSecretBox(secretKey: string) {
  const key = Buffer.from(hkdfSync("sha256", secretKey, "atelier-identity", "mfa-secret-encryption-v1", 32));
  return {
    seal(plaintext: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
    },
    open(sealed: string): string {
      const [version, iv, tag, ciphertext] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || ciphertext === undefined) {
        throw new Error("Unknown format of an encrypted secret.");
      }
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;

/** A new TOTP secret: 20 random bytes as 32 base32 characters. */
export function createTotpSecret(): string {
  return new OTPAuth.Secret({ size: totpSettings.secretBytes }).base32;
}

function totpOf(secret: string, label = "") {
  return new OTPAuth.TOTP({ issuer: totpSettings.issuer, label, algorithm: totpSettings.algorithm, digits: totpSettings.digits, period: totpSettings.period, secret: OTPAuth.Secret.fromBase32(secret) });
}

/** The `otpauth://totp/…` URL for the QR code. */
export function totpUrlOf(secret: string, accountLabel: string): string {
  return totpOf(secret, accountLabel).toString();
}

/** The time step a moment belongs to. */
export function totpStepAt(now: Date): number {
  return Math.floor(now.getTime() / 1_000 / totpSettings.period);
}

/** Whether `code` is the code of the current step (tolerance 0, as allauth's default). */
export function totpCodeMatches(secret: string, code: string, now: Date): boolean {
  const normalized = code.replace(/\s/g, "");
  if (!/^\d+$/.test(normalized)) {
    return false;
  }
  return totpOf(secret).validate({ token: normalized, timestamp: now.getTime(), window: 0 }) === 0;
}

/** Ten fresh recovery codes (8 digits each, uniformly random). */
export function createRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < recoveryCodeSettings.count) {
    codes.add(String(randomInt(10 ** recoveryCodeSettings.digits)).padStart(recoveryCodeSettings.digits, "0"));
  }
  return [...codes];
}

/** Only this HMAC of a recovery code is stored (keyed with `SECRET_KEY`, so a stolen table cannot be brute-forced offline). */
export function hashRecoveryCode(secretKey: string, code: string): string {
  return createHmac("sha256", secretKey).update(`recovery_code:${code.replace(/[^0-9]/g, "")}`).digest("hex");
}
