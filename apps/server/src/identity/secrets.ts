import { createHmac, hash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

/** allauth's alphabet for user codes: no vowels (no words), no look-alikes. */
const userCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ";
const userCodeLength = 8;

/** A random token for session cookies, `X-Session-Token` and link keys: 32 bytes, base64url (43 characters). */
export function createRandomToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * SHA-256 in hex; enough for high-entropy tokens, which cannot be guessed from their hash. Node's one-shot `hash` took
 * 0.9 µs where a `createHash` object took 2.3 µs, on every session read.
 */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** A user code as shown in mails, `XXXX-XXXX` (8 of 20 letters ≈ 34.6 bits). */
export function createUserCode(): string {
  let code = "";
  for (let index = 0; index < userCodeLength; index += 1) {
    code += userCodeAlphabet[randomInt(userCodeAlphabet.length)];
  }
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** As allauth compares codes: punctuation and whitespace removed, case-insensitive. */
export function normalizeUserCode(code: string): string {
  return code.replace(/[^0-9a-z]/gi, "").toUpperCase();
}

/**
 * HMAC of a code or key with the server secret: a stolen table does not allow guessing the short codes offline.
 * The purpose is part of the input so that a code of one kind never matches another.
 */
export function hashSecret(secretKey: string, purpose: string, secret: string): string {
  return createHmac("sha256", secretKey).update(`${purpose}:${secret}`).digest("hex");
}

export function constantTimeEquals(left: string, right: string): boolean {
  const leftBuffer = Buffer.from(left);
  const rightBuffer = Buffer.from(right);
  return leftBuffer.length === rightBuffer.length && timingSafeEqual(leftBuffer, rightBuffer);
}
