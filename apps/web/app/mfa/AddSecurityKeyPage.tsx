import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { createWebAuthnCredential } from "@atelier/auth";
import { useAuthClient, useConfiguration } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { useWebAuthnCeremony } from "./use-webauthn-ceremony.ts";

/**
 * /account/2fa/webauthn/add: `GET account/authenticators/webauthn[?passwordless]`, `navigator.credentials.create`,
 * then `POST {name, credential}`. A first key also generates recovery codes, shown next.
 */
export function AddSecurityKeyPage() {
  const client = useAuthClient();
  const passkeyLoginEnabled = useConfiguration()?.mfa?.passkey_login_enabled === true;
  const [name, setName] = useState("");
  const [passwordless, setPasswordless] = useState(false);
  const { webAuthnError, clearWebAuthnError, runCeremony } = useWebAuthnCeremony();
  const form = useAllauthForm();
  const navigate = useNavigate();

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clearWebAuthnError();
    if (!name.trim()) {
      form.setErrors({ byParam: { name: ["Give the key a name."] }, general: [] });
      return;
    }
    const result = await form.submit(async () => {
      const options = await client.getWebAuthnCreationOptions({ passwordless });
      if (options.status !== 200) return options;
      const credential = await runCeremony(() => createWebAuthnCredential(options.data.creation_options));
      if (!credential) return { status: 0 as const };
      return client.addWebAuthnAuthenticator({ name: name.trim(), credential });
    });
    if (result?.status === 200) {
      const recoveryCodesGenerated = "meta" in result && result.meta?.recovery_codes_generated === true;
      navigate(recoveryCodesGenerated ? "/account/2fa/recovery-codes" : "/account/2fa/webauthn", { state: { securityKeyAdded: name.trim() } });
    }
  };

  return (
    <AccountPage title="Add a security key" lead="Your browser will ask you to touch your key or confirm with your device.">
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Key name" name="name" required maxLength={255} value={name} onChange={(event) => setName(event.target.value)} errors={form.errors.byParam.name} />
        {passkeyLoginEnabled ? (
          <div className="form-field form-field--checkbox">
            <input id="security-key-passwordless" type="checkbox" checked={passwordless} onChange={(event) => setPasswordless(event.target.checked)} />
            <label htmlFor="security-key-passwordless">Use as a passkey (sign in without a password)</label>
          </div>
        ) : null}
        <FormGeneralErrors errors={[...(webAuthnError ? [webAuthnError] : []), ...form.errors.general, ...(form.errors.byParam.credential ?? [])]} />
        <Button type="submit" disabled={form.submitting}>
          {form.submitting ? "Waiting for your key..." : "Add key"}
        </Button>
      </form>
    </AccountPage>
  );
}
