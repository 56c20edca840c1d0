import { hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";
import { errorItem, type IdentityErrorItem } from "./identity-errors.ts";

/** OWASP/Copenhagen minimum for argon2id: 19 MiB, 2 passes, 1 lane (about 15 ms here). */
// 2 = Algorithm.Argon2id (a const enum, which verbatimModuleSyntax cannot import).
const argon2Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const minimumPasswordLength = 8;
export const maximumPasswordLength = 1024;

/** Hashes a password to an argon2id PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options);
}

let dummyHash: Promise<string> | null = null;

/**
 * Checks a password against a stored hash. Without a hash (unknown user, no usable password) it still spends the
 * time of one verification, so that answer times do not reveal which addresses have accounts.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword("atelier-dummy-password");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let commonPasswords: ReadonlySet<string> | undefined;

/**
 * Whether a password is on the list of the most common ones (zxcvbn-ts' 49,000, shipped with the package, read once;
 * no network), compared as Django's CommonPasswordValidator does: trimmed, lower case.
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary["passwords-common"]);
  return commonPasswords.has(password.trim().toLowerCase());
}

/**
 * The password rules (Django's default validators that work offline): at least 8 characters, not one of the most
 * common passwords, not only digits.
 */
export function validateNewPassword(password: string, param: string): IdentityErrorItem[] {
  const errors: IdentityErrorItem[] = [];
  if (password.length < minimumPasswordLength) {
    errors.push(errorItem("password_too_short", param));
  }
  if (password.length > maximumPasswordLength) {
    errors.push(errorItem("password_too_long", param));
  }
  if (password.length <= maximumPasswordLength && isCommonPassword(password)) {
    errors.push(errorItem("password_too_common", param));
  }
  if (/^\d+$/.test(password)) {
    errors.push(errorItem("password_entirely_numeric", param));
  }
  return errors;
}
