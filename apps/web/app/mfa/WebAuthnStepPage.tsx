import { Button } from "@atelier/ui";
import { getWebAuthnCredential } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { SecondFactorAlternatives } from "./SecondFactorAlternatives.tsx";
import type { SecondFactorStep } from "./second-factor-flows.ts";
import { useWebAuthnCeremony } from "./use-webauthn-ceremony.ts";

/**
 * The second-factor step with a security key: `GET auth/webauthn/{authenticate|reauthenticate}` for the request
 * options, the browser's `navigator.credentials.get`, then `POST` the credential's JSON.
 */
export function WebAuthnStepPage({ step }: { step: SecondFactorStep }) {
  const client = useAuthClient();
  const form = useAllauthForm();
  const { webAuthnError, clearWebAuthnError, runCeremony } = useWebAuthnCeremony();

  const useKey = async () => {
    clearWebAuthnError();
    await form.submit(async () => {
      const options = step === "authenticate" ? await client.getWebAuthnAuthenticateOptions() : await client.getWebAuthnReauthenticateOptions();
      if (options.status !== 200) return options;
      const credential = await runCeremony(() => getWebAuthnCredential(options.data.request_options));
      if (!credential) return { status: 0 as const };
      return step === "authenticate" ? client.authenticateWithWebAuthn({ credential }) : client.reauthenticateWithWebAuthn({ credential });
    });
  };

  return (
    <AccountPage title={step === "authenticate" ? "Two-factor authentication" : "Confirm it is you"} lead="Use your security key or passkey when your browser asks for it.">
      <FormGeneralErrors errors={webAuthnError ? [webAuthnError, ...form.errors.general] : form.errors.general} />
      <Button onClick={useKey} disabled={form.submitting}>
        {form.submitting ? "Waiting for your key..." : "Use security key"}
      </Button>
      <SecondFactorAlternatives step={step} current="webauthn" />
    </AccountPage>
  );
}
