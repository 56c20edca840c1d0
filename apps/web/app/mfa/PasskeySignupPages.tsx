import { useState, type FormEvent } from "react";
import { Link, Navigate, useNavigate } from "react-router";
import { Button, Spinner } from "@atelier/ui";
import { createWebAuthnCredential, type AllauthClient, type AuthenticationInfo, type WebAuthnCreationOptionsJson } from "@atelier/auth";
import { useAuthClient, useAuthStatus } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { SIGNUP_UNEXPECTED_ERROR_MESSAGE } from "../account/login-messages.ts";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { useWebAuthnCeremony } from "./use-webauthn-ceremony.ts";

export const PASSKEY_SIGNUP_PATH = "/account/signup/passkey";

/**
 * /account/signup/passkey: only an e-mail address. `POST auth/webauthn/signup {email}` answers 401 with
 * `verify_email` pending; the redirector opens the code page, and after it `mfa_signup_webauthn` leads to the
 * create page.
 */
export function PasskeySignupPage() {
  const client = useAuthClient();
  const [email, setEmail] = useState("");
  const form = useAllauthForm(SIGNUP_UNEXPECTED_ERROR_MESSAGE);
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim()) {
      form.setErrors({ byParam: { email: ["Email is required"] }, general: [] });
      return;
    }
    const result = await form.submit(() => client.signupWithPasskey({ email: email.trim() }));
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

/** What the passkey creation page needs: the creation options, or why it has none. */
export type PasskeyCreationData =
  | { state: "ready"; options: WebAuthnCreationOptionsJson }
  /** No pending `mfa_signup_webauthn` flow, or the server's 409: back to the passkey sign-up page. */
  | { state: "not-pending" }
  | { state: "failed" };

/**
 * The creation page's `clientLoader` (routes/account/signup-passkey-create.tsx): `GET auth/webauthn/signup` for the
 * creation options, asked only while the `mfa_signup_webauthn` flow is pending.
 */
export async function loadPasskeyCreation(client: Pick<AllauthClient, "getWebAuthnSignupOptions">, status: Pick<AuthenticationInfo, "pendingFlow">): Promise<PasskeyCreationData> {
  if (status.pendingFlow?.id !== "mfa_signup_webauthn") return { state: "not-pending" };
  try {
    const result = await client.getWebAuthnSignupOptions();
    if (result.status === 200) return { state: "ready", options: result.data.creation_options };
    return result.status === 409 ? { state: "not-pending" } : { state: "failed" };
  } catch (error) {
    console.error(error);
    return { state: "failed" };
  }
}

const CREATE_TITLE = "Create your passkey";
const CREATE_LEAD = "Name the passkey, then confirm with your device when your browser asks.";

/** Shown while the creation options load on a first visit (the route's `HydrateFallback`). */
export function PasskeyCreateLoading() {
  return (
    <AccountPage title={CREATE_TITLE} lead={CREATE_LEAD}>
      <Spinner label="Preparing your passkey" />
    </AccountPage>
  );
}

/**
 * /account/signup/passkey/create: names the passkey, `navigator.credentials.create` with the options of its route's
 * loader, then `PUT {name, credential}` (200 = signed in). A 409, or no pending `mfa_signup_webauthn` flow, goes back
 * to the passkey sign-up page (spec §2.3).
 */
export function PasskeyCreatePage({ data }: { data: PasskeyCreationData }) {
  const client = useAuthClient();
  const { pendingFlow, isAuthenticated } = useAuthStatus();
  const navigate = useNavigate();
  const [name, setName] = useState("Passkey");
  const { webAuthnError, clearWebAuthnError, runCeremony } = useWebAuthnCeremony();
  const form = useAllauthForm(SIGNUP_UNEXPECTED_ERROR_MESSAGE);
  const flowIsPending = pendingFlow?.id === "mfa_signup_webauthn";
  const options = data.state === "ready" ? data.options : undefined;

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
      return client.completePasskeySignup({ name: name.trim(), credential });
    });
    if (result?.status === 409) void navigate(PASSKEY_SIGNUP_PATH, { replace: true });
  };

  // Signed in by the PUT: the guard and the redirector take over.
  if (!flowIsPending) return isAuthenticated ? null : <Navigate to={PASSKEY_SIGNUP_PATH} replace />;
  if (data.state === "not-pending") return <Navigate to={PASSKEY_SIGNUP_PATH} replace />;
  const loadErrors = data.state === "failed" ? [SIGNUP_UNEXPECTED_ERROR_MESSAGE] : [];
  return (
    <AccountPage title={CREATE_TITLE} lead={CREATE_LEAD}>
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Passkey name" name="name" required maxLength={255} value={name} onChange={(event) => setName(event.target.value)} errors={form.errors.byParam.name} />
        <FormGeneralErrors errors={[...(webAuthnError ? [webAuthnError] : []), ...loadErrors, ...form.errors.general, ...(form.errors.byParam.credential ?? [])]} />
        <Button type="submit" disabled={form.submitting || options === undefined}>
          {form.submitting ? "Waiting for your device..." : "Create passkey"}
        </Button>
      </form>
    </AccountPage>
  );
}
