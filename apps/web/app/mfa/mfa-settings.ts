import { useConfiguration } from "@atelier/auth/react";

/**
 * Whether to offer 'Sign in with a passkey': unless the server's configuration says passkey login is off
 * (`mfa.passkey_login_enabled: false`, or no `webauthn` among `mfa.supported_types`).
 */
export function usePasskeyLoginOffered(): boolean {
  const mfa = useConfiguration()?.mfa;
  if (!mfa) return true;
  return mfa.passkey_login_enabled !== false && mfa.supported_types.includes("webauthn");
}
