import { Button } from "@atelier/ui";
import { getWebAuthnCredential, type AuthenticatedResponse } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { FormGeneralErrors } from "../account/AccountFormField.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { useWebAuthnCeremony } from "./use-webauthn-ceremony.ts";

export const PASSKEY_LOGIN_FAILED_MESSAGE = "Signing in with a passkey failed. Please try again.";

export interface PasskeyLoginButtonProps {
  /** After a 200 (signed in). Without it, the redirector navigates on the login event. */
  onSignedIn?: (result: AuthenticatedResponse) => void | Promise<void>;
  /** After a 401 with a pending flow (e.g. e-mail verification): the redirector opens its page. */
  onPendingFlow?: () => void;
}

/** 'Sign in with a passkey': `GET auth/webauthn/login`, `navigator.credentials.get`, `POST auth/webauthn/login`. */
export function PasskeyLoginButton({ onSignedIn, onPendingFlow }: PasskeyLoginButtonProps) {
  const client = useAuthClient();
  const form = useAllauthForm(PASSKEY_LOGIN_FAILED_MESSAGE);
  const { webAuthnError, clearWebAuthnError, runCeremony } = useWebAuthnCeremony();
  const signIn = async () => {
    clearWebAuthnError();
    const result = await form.submit(async () => {
      const options = await client.getWebAuthnLoginOptions();
      if (options.status !== 200) return options;
      const credential = await runCeremony(() => getWebAuthnCredential(options.data.request_options));
      if (!credential) return { status: 0 as const };
      return client.loginWithWebAuthn({ credential });
    });
    if (!result) return;
    if (result.status === 200 && "data" in result && "user" in result.data) await onSignedIn?.(result as AuthenticatedResponse);
    else if (result.status === 401) onPendingFlow?.();
    else if (result.status !== 0 && !("errors" in result && result.errors?.length)) form.setErrors({ byParam: {}, general: [PASSKEY_LOGIN_FAILED_MESSAGE] });
  };
  const errors = [...(webAuthnError ? [webAuthnError] : []), ...form.errors.general, ...Object.values(form.errors.byParam).flat()];
  return (
    <div className="passkey-login">
      <Button type="button" variant="secondary" onClick={signIn} disabled={form.submitting}>
        {form.submitting ? "Waiting for your passkey..." : "Sign in with a passkey"}
      </Button>
      <FormGeneralErrors errors={errors} />
    </div>
  );
}
