import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { AnonymousRoute, useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { PASSWORD_RESET_ANTI_ENUMERATION_MESSAGE, PASSWORD_RESET_SPAM_HINT } from "../../account/login-messages.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";

export const meta = accountPageMeta("Reset your password");

function RequestPasswordResetForm() {
  const authClient = useAuthClient();
  const [email, setEmail] = useState("");
  const [state, setState] = useState<"asking" | "sent">("asking");
  const form = useAllauthForm();
  const navigate = useNavigate();

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await form.submit(() => authClient.requestPasswordReset({ email }));
    if (result?.status === 200) setState("sent");
    // 401: reset by code, a code is pending (spec 2.3).
    else if (result?.status === 401) navigate("/account/password/reset/confirm");
  };

  if (state === "sent") {
    return (
      <AccountPage title="Reset your password">
        <p role="status">Password reset sent.</p>
        <p>{PASSWORD_RESET_ANTI_ENUMERATION_MESSAGE}</p>
        <p>{PASSWORD_RESET_SPAM_HINT}</p>
      </AccountPage>
    );
  }

  return (
    <AccountPage title="Reset your password" lead="Enter your e-mail address and we will send you what you need to set a new password.">
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} errors={form.errors.byParam.email} />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          Reset password
        </Button>
      </form>
    </AccountPage>
  );
}

export default function PasswordResetRoute() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <RequestPasswordResetForm />
    </AnonymousRoute>
  );
}
