import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Button, Spinner } from "@atelier/ui";
import { createWebAuthnCredential, type WebAuthnCreationOptionsJson } from "@atelier/auth";
import { useAuthStatus } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { SIGNUP_UNEXPECTED_ERROR_MESSAGE } from "../account/login-messages.ts";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { authClient } from "../lib/auth.ts";
import { useWebAuthnCeremony } from "./use-webauthn-ceremony.ts";

export const PASSKEY_SIGNUP_PATH = "/account/signup/passkey";

/**
 * /account/signup/passkey: only an e-mail address. `POST auth/webauthn/signup {email}` answers 401 with
 * `verify_email` pending; the redirector opens the code page, and after it `mfa_signup_webauthn` leads to the
 * create page.
 */
export function PasskeySignupPage() {
  const [email, setEmail] = useState("");
  const form = useAllauthForm(SIGNUP_UNEXPECTED_ERROR_MESSAGE);
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim()) {
      form.setErrors({ byParam: { email: ["Email is required"] }, general: [] });
      return;
    }
    const result = await form.submit(() => authClient.signupWithPasskey({ email: email.trim() }));
    if (result?.status === 403) form.setErrors({ byParam: {}, general: ["Sign-up is closed."] });
    else if (result?.status === 409) form.setErrors({ byParam: {}, general: ["You are already signed in."] });
  };
  return (
    <AccountPage title="Sign up using a passkey" lead="No password: a passkey on your device signs you in. We first confirm your e-mail address.">
      <p>
        Already have an account? <Link to="/account/login">Log in here.</Link> Prefer a password? <Link to="/account/signup">Sign up with a password.</Link>
      </p>
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} errors={form.errors.byParam.email} />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          Sign up
        </Button>
      </form>
    </AccountPage>
  );
}

/**
 * /account/signup/passkey/create: names the passkey, `GET auth/webauthn/signup` for the creation options,
 * `navigator.credentials.create`, then `PUT {name, credential}` (200 = signed in). A 409, or no pending
 * `mfa_signup_webauthn` flow, goes back to the passkey sign-up page (spec §2.3).
 */
export function PasskeyCreatePage() {
  const { pendingFlow, isAuthenticated } = useAuthStatus();
  const navigate = useNavigate();
  const [name, setName] = useState("Passkey");
  const [options, setOptions] = useState<WebAuthnCreationOptionsJson | undefined>(undefined);
  const { webAuthnError, clearWebAuthnError, runCeremony } = useWebAuthnCeremony();
  const form = useAllauthForm(SIGNUP_UNEXPECTED_ERROR_MESSAGE);
  const flowIsPending = pendingFlow?.id === "mfa_signup_webauthn";

  useEffect(() => {
    if (!flowIsPending) {
      // Signed in by the PUT: the guard and the redirector take over.
      if (!isAuthenticated) void navigate(PASSKEY_SIGNUP_PATH, { replace: true });
      return;
    }
    let current = true;
    authClient
      .getWebAuthnSignupOptions()
      .then((result) => {
        if (!current) return;
        if (result.status === 200) setOptions(result.data.creation_options);
        else if (result.status === 409) void navigate(PASSKEY_SIGNUP_PATH, { replace: true });
        else form.setErrors({ byParam: {}, general: [SIGNUP_UNEXPECTED_ERROR_MESSAGE] });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (current) form.setErrors({ byParam: {}, general: [SIGNUP_UNEXPECTED_ERROR_MESSAGE] });
      });
    return () => {
      current = false;
    };
    // `form.setErrors` is a state setter: stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `form` is a new object on each render; only its stable setter is used.
  }, [flowIsPending, isAuthenticated, navigate]);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clearWebAuthnError();
    if (!options) return;
    if (!name.trim()) {
      form.setErrors({ byParam: { name: ["Give the passkey a name."] }, general: [] });
      return;
    }
    const result = await form.submit(async () => {
      const credential = await runCeremony(() => createWebAuthnCredential(options));
      if (!credential) return { status: 0 as const };
      // 200: signed in; the redirector takes the new user to the dashboard.
      return authClient.completePasskeySignup({ name: name.trim(), credential });
    });
    if (result?.status === 409) void navigate(PASSKEY_SIGNUP_PATH, { replace: true });
  };

  if (!flowIsPending) return null;
  return (
    <AccountPage title="Create your passkey" lead="Name the passkey, then confirm with your device when your browser asks.">
      {options === undefined && form.errors.general.length === 0 ? <Spinner label="Preparing your passkey" /> : null}
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Passkey name" name="name" required maxLength={255} value={name} onChange={(event) => setName(event.target.value)} errors={form.errors.byParam.name} />
        <FormGeneralErrors errors={[...(webAuthnError ? [webAuthnError] : []), ...form.errors.general, ...(form.errors.byParam.credential ?? [])]} />
        <Button type="submit" disabled={form.submitting || options === undefined}>
          {form.submitting ? "Waiting for your device..." : "Create passkey"}
        </Button>
      </form>
    </AccountPage>
  );
}
