import { useCallback, useEffect, useState } from "react";
import type { Authenticator, RecoveryCodesAuthenticator, TotpAuthenticator, WebAuthnAuthenticator } from "@atelier/auth";
import { authClient } from "../lib/auth.ts";

export type MfaClient = typeof authClient;

export type LoadState<T> = { state: "loading" } | { state: "ready"; value: T } | { state: "failed"; status?: number };

/** `GET account/authenticators`, loaded on arrival (the two-factor overview waits for it behind a spinner). */
export function useAuthenticators(client: Pick<MfaClient, "listAuthenticators"> = authClient) {
  const [authenticators, setAuthenticators] = useState<LoadState<Authenticator[]>>({ state: "loading" });
  const reload = useCallback(async () => {
    try {
      const result = await client.listAuthenticators();
      setAuthenticators(result.status === 200 ? { state: "ready", value: result.data } : { state: "failed", status: result.status });
    } catch (error) {
      console.error(error);
      setAuthenticators({ state: "failed" });
    }
  }, [client]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { authenticators, setAuthenticators, reload };
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
