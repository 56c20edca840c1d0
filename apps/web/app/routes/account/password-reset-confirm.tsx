import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { AnonymousRoute, useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";

export const meta = accountPageMeta("Enter your reset code");

function ConfirmPasswordResetCodeForm() {
  const authClient = useAuthClient();
  const [code, setCode] = useState("");
  const form = useAllauthForm();
  const navigate = useNavigate();

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await form.submit(() => authClient.getPasswordResetKeyInfo(code));
    if (result?.status === 200) navigate("/account/password/reset/complete", { state: { key: code } });
    else if (result?.status === 409) navigate("/account/password/reset", { replace: true });
  };

  return (
    <AccountPage title="Enter your reset code" lead="The code was sent to your e-mail address.">
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Code" name="code" autoComplete="one-time-code" required value={code} onChange={(event) => setCode(event.target.value)} errors={form.errors.byParam.key ?? form.errors.byParam.code} />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          Continue
        </Button>
      </form>
    </AccountPage>
  );
}

export default function PasswordResetConfirmRoute() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <ConfirmPasswordResetCodeForm />
    </AnonymousRoute>
  );
}
