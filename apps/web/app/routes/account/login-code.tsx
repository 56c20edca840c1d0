import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { AnonymousRoute, useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";

export const meta = accountPageMeta("Sign in with a code");

function RequestLoginCodeForm() {
  const authClient = useAuthClient();
  const [email, setEmail] = useState("");
  const form = useAllauthForm();
  const navigate = useNavigate();

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await form.submit(() => authClient.requestLoginCode({ email }));
    // 401 means a code is on its way and the login_by_code flow is pending (spec 2.3).
    if (result?.status === 401) navigate("/account/login/code/confirm");
  };

  return (
    <AccountPage title="Sign in with a code" lead="We will e-mail you a code that signs you in; it expires shortly.">
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} errors={form.errors.byParam.email} />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          Request code
        </Button>
      </form>
    </AccountPage>
  );
}

export default function LoginCodeRoute() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <RequestLoginCodeForm />
    </AnonymousRoute>
  );
}
