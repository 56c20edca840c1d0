import { useState, type FormEvent } from "react";
import { Button } from "@atelier/ui";
import { ProtectedRoute, useAuthClient, useAuthStatus } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { Link, useSearchParams } from "react-router";
import { AUTHENTICATOR_TYPE_LABELS, flowsOf, secondFactorPath } from "../../mfa/second-factor-flows.ts";

/** The user's second factors, offered beside the password (the reauthentication 401 lists them as mfa_reauthenticate). */
function SecondFactorOptions() {
  const { response } = useAuthStatus();
  const [searchParams] = useSearchParams();
  const next = searchParams.get("next");
  const types = (flowsOf(response).find((flow) => flow.id === "mfa_reauthenticate")?.types ?? []).filter((type) => Object.hasOwn(AUTHENTICATOR_TYPE_LABELS, type));
  if (types.length === 0) return null;
  return (
    <ul className="account-links" aria-label="Other methods">
      {types.map((type) => {
        const path = secondFactorPath("reauthenticate", type);
        return (
          <li key={type}>
            <Link to={next ? `${path}?next=${encodeURIComponent(next)}` : path}>{AUTHENTICATOR_TYPE_LABELS[type]}</Link>
          </li>
        );
      })}
    </ul>
  );
}

export const meta = accountPageMeta("Confirm it is you");

function ReauthenticateForm() {
  const authClient = useAuthClient();
  const { user } = useAuthStatus();
  const [password, setPassword] = useState("");
  const form = useAllauthForm();
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // On success the store sees 'reauthenticated' and the redirector returns to ?next= (spec 2.1).
    await form.submit(() => authClient.reauthenticate({ password }));
  };
  return (
    <AccountPage title="Confirm it is you" lead="For your security, please enter your password again before you continue.">
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        {user?.email ? <input type="email" name="email" autoComplete="username" value={user.email} readOnly hidden /> : null}
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
          Confirm
        </Button>
      </form>
      <SecondFactorOptions />
    </AccountPage>
  );
}

export default function ReauthenticateRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <ReauthenticateForm />
    </ProtectedRoute>
  );
}
