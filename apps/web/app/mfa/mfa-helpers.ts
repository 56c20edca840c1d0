import { WebAuthnUnsupportedError, isWebAuthnCancellation, safeLocalPath } from "@atelier/auth";

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** allauth's timestamps are seconds since the epoch (with a fraction). */
export function formatSeconds(seconds: number | null | undefined): string {
  return typeof seconds === "number" ? dateTimeFormat.format(new Date(seconds * 1000)) : "Never";
}

export const WEBAUTHN_CANCELLED_MESSAGE = "The security key request was cancelled or timed out. Please try again.";
export const WEBAUTHN_UNSUPPORTED_MESSAGE = "This browser does not support passkeys or security keys.";
export const WEBAUTHN_FAILED_MESSAGE = "The security key could not be used. Please try again.";

/** A sentence for a failure of `navigator.credentials.create/get` (or of the helpers around them). */
export function webAuthnErrorMessage(error: unknown): string {
  if (error instanceof WebAuthnUnsupportedError) return WEBAUTHN_UNSUPPORTED_MESSAGE;
  if (isWebAuthnCancellation(error)) return WEBAUTHN_CANCELLED_MESSAGE;
  return WEBAUTHN_FAILED_MESSAGE;
}

export const RECOVERY_CODES_FILE_NAME = "atelier-recovery-codes.txt";

/** The text file of the recovery codes: one code a line. */
export function recoveryCodesFileText(codes: readonly string[]): string {
  return `Atelier recovery codes\n\n${codes.join("\n")}\n`;
}

/** Downloads the codes as `atelier-recovery-codes.txt` (a Blob and a temporary link). */
export function downloadRecoveryCodes(codes: readonly string[], doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([recoveryCodesFileText(codes)], { type: "text/plain" }));
  const link = doc.createElement("a");
  link.href = url;
  link.download = RECOVERY_CODES_FILE_NAME;
  doc.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** The `next` query parameter if it is a plain path of this site (see `safeLocalPath` of @atelier/auth). */
export function safeNextPath(next: string | null | undefined): string | undefined {
  return safeLocalPath(next);
}
