import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "@atelier/ui";
import { AnonymousRoute, useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { PASSWORD_MISMATCH_PAGE_MESSAGE, SIGNUP_UNEXPECTED_ERROR_MESSAGE } from "../../account/login-messages.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";

export const meta = accountPageMeta("Sign up");

function SignupForm() {
  const authClient = useAuthClient();
  const [fields, setFields] = useState({ email: "", password: "", password2: "" });
  const form = useAllauthForm(SIGNUP_UNEXPECTED_ERROR_MESSAGE);
  const update = (name: keyof typeof fields) => (event: { target: { value: string } }) => setFields((current) => ({ ...current, [name]: event.target.value }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (fields.password !== fields.password2) {
      form.setErrors({ byParam: { password2: [PASSWORD_MISMATCH_PAGE_MESSAGE] }, general: [] });
      return;
    }
    await form.submit(() => authClient.signup({ email: fields.email, password: fields.password }));
  };

  return (
    <AccountPage title="Sign up">
      <p>
        Already have an account? <Link to="/account/login">Log in here.</Link>
      </p>
      <p>
        <Link to="/account/signup/passkey">Sign up using a passkey</Link>
      </p>
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Email" type="email" name="email" autoComplete="email" required value={fields.email} onChange={update("email")} errors={form.errors.byParam.email} />
        <AccountFormField label="Password" type="password" name="password" autoComplete="new-password" required value={fields.password} onChange={update("password")} errors={form.errors.byParam.password} />
        <AccountFormField
          label="Password (again)"
          type="password"
          name="password2"
          autoComplete="new-password"
          required
          value={fields.password2}
          onChange={update("password2")}
          errors={form.errors.byParam.password2}
        />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          {form.submitting ? "Signing up..." : "Sign up"}
        </Button>
      </form>
    </AccountPage>
  );
}

export default function SignupRoute() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <SignupForm />
    </AnonymousRoute>
  );
}
