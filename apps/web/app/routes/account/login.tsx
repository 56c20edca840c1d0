import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { Button } from "@atelier/ui";
import { errorsByParam, safeLocalPath } from "@atelier/auth";
import { AnonymousRoute, useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { useAccountSettings } from "../../account/auth-hooks.ts";
import { LOGIN_UNEXPECTED_ERROR_MESSAGE, loginFailureMessages } from "../../account/login-messages.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { accountPageMeta } from "../../account/account-meta.ts";
import { PasskeyLoginButton } from "../../mfa/PasskeyLoginButton.tsx";
import { usePasskeyLoginOffered } from "../../mfa/mfa-settings.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { ProviderButtons } from "../../providers/ProviderButtons.tsx";

export const meta = accountPageMeta("Log in");

function LoginForm() {
  const authClient = useAuthClient();
  const { loginByCodeEnabled } = useAccountSettings();
  const passkeyLoginOffered = usePasskeyLoginOffered();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const form = useAllauthForm(LOGIN_UNEXPECTED_ERROR_MESSAGE);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await form.submit(() => authClient.login({ email, password }));
    if (result?.status === 400) form.setErrors(errorsByParam(loginFailureMessages(result.errors)));
  };

  return (
    <AccountPage title="Log in">
      <p>
        No account yet? <Link to="/account/signup">Sign up here.</Link>
      </p>
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} errors={form.errors.byParam.email} />
        <AccountFormField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          errors={form.errors.byParam.password}
        />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          {form.submitting ? "Logging in..." : "Log in"}
        </Button>
      </form>
      {/* A 200 is a login: the redirector navigates (to ?next= or the dashboard). */}
      {passkeyLoginOffered ? <PasskeyLoginButton /> : null}
      {/* A form post to the provider; the visitor comes back to /account/provider/callback. */}
      <ProviderButtons process="login" />
      <ul className="account-links">
        <li>
          <Link to="/account/password/reset">Forgot your password?</Link>
        </li>
        {loginByCodeEnabled ? (
          <li>
            <Link to="/account/login/code">Send me a sign-in code</Link>
          </li>
        ) : null}
      </ul>
    </AccountPage>
  );
}


export default function LoginRoute() {
  const [searchParams] = useSearchParams();
  return (
    <AnonymousRoute redirectTo={safeLocalPath(searchParams.get("next")) ?? LOGIN_REDIRECT_PATH}>
      <LoginForm />
    </AnonymousRoute>
  );
}
