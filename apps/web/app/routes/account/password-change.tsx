import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { ProtectedRoute, useAuthClient, useAuthStatus } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { PASSWORD_MISMATCH_PAGE_MESSAGE } from "../../account/login-messages.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = accountPageMeta("Change password");

function ChangePasswordForm() {
  const authClient = useAuthClient();
  const { user } = useAuthStatus();
  const hasUsablePassword = user?.has_usable_password !== false;
  const [fields, setFields] = useState({ currentPassword: "", newPassword: "", newPassword2: "" });
  const form = useAllauthForm();
  const navigate = useNavigate();
  const update = (name: keyof typeof fields) => (event: { target: { value: string } }) => setFields((current) => ({ ...current, [name]: event.target.value }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (fields.newPassword !== fields.newPassword2) {
      form.setErrors({ byParam: { new_password2: [PASSWORD_MISMATCH_PAGE_MESSAGE] }, general: [] });
      return;
    }
    const result = await form.submit(() =>
      authClient.changePassword(hasUsablePassword ? { currentPassword: fields.currentPassword, newPassword: fields.newPassword } : { newPassword: fields.newPassword }),
    );
    if (result?.status === 200) navigate("/calculator");
  };

  return (
    <AccountPage title={hasUsablePassword ? "Change password" : "Set password"}>
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        {hasUsablePassword ? (
          <AccountFormField
            label="Current password"
            type="password"
            name="current_password"
            autoComplete="current-password"
            required
            value={fields.currentPassword}
            onChange={update("currentPassword")}
            errors={form.errors.byParam.current_password}
          />
        ) : null}
        <AccountFormField
          label="New password"
          type="password"
          name="new_password"
          autoComplete="new-password"
          required
          value={fields.newPassword}
          onChange={update("newPassword")}
          errors={form.errors.byParam.new_password}
        />
        <AccountFormField
          label="New password (again)"
          type="password"
          name="new_password2"
          autoComplete="new-password"
          required
          value={fields.newPassword2}
          onChange={update("newPassword2")}
          errors={form.errors.byParam.new_password2}
        />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          {hasUsablePassword ? "Change password" : "Set password"}
        </Button>
      </form>
    </AccountPage>
  );
}

export default function PasswordChangeRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <ChangePasswordForm />
    </ProtectedRoute>
  );
}
