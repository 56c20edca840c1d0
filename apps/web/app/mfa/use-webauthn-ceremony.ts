import { useCallback, useState } from "react";
import { webAuthnErrorMessage } from "./mfa-helpers.ts";

/**
 * The browser's part of a WebAuthn step (`navigator.credentials.create/get` through @atelier/auth's helpers): its
 * failure is not an allauth answer, so it is kept apart as a sentence for the page to show.
 *
 * @example
 * const { webAuthnError, clearWebAuthnError, runCeremony } = useWebAuthnCeremony();
 * const credential = await runCeremony(() => getWebAuthnCredential(options.data.request_options));
 * if (!credential) return { status: 0 as const };
 */
export function useWebAuthnCeremony() {
  const [webAuthnError, setWebAuthnError] = useState<string | undefined>(undefined);
  const clearWebAuthnError = useCallback(() => setWebAuthnError(undefined), []);
  /** Runs the ceremony; on failure logs it, shows why, and returns undefined. */
  const runCeremony = useCallback(async <T,>(ceremony: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await ceremony();
    } catch (error) {
      console.error(error);
      setWebAuthnError(webAuthnErrorMessage(error));
      return undefined;
    }
  }, []);
  return { webAuthnError, clearWebAuthnError, runCeremony };
}
