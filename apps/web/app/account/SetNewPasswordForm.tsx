import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "@atelier/ui";
import { useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "./AccountFormField.tsx";
import { PASSWORD_MISMATCH_PAGE_MESSAGE } from "./login-messages.ts";
import { useAllauthForm } from "./use-allauth-form.ts";

/** The last step of a reset, by code or by link: a new password twice, sent with the key. */
export function SetNewPasswordForm({ resetKey }: { resetKey: string }) {
  const authClient = useAuthClient();
  const [fields, setFields] = useState({ password: "", password2: "" });
  const [state, setState] = useState<"editing" | "done">("editing");
  const form = useAllauthForm();

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (fields.password !== fields.password2) {
      form.setErrors({ byParam: { password2: [PASSWORD_MISMATCH_PAGE_MESSAGE] }, general: [] });
      return;
    }
    const result = await form.submit(() => authClient.resetPassword({ key: resetKey, password: fields.password }));
    // 200 signs the user in (the redirector takes over); 401 means the password is set but a login is needed.
    if (result?.status === 401) setState("done");
    else if (result?.status === 409) form.setErrors({ byParam: {}, general: ["This reset is no longer valid. Please request a new one."] });
  };

  if (state === "done") {
    return (
      <p role="status">
        Your password has been reset. <Link to="/account/login">Log in</Link> with your new password.
      </p>
    );
  }

  return (
    <form className="account-form" onSubmit={handleSubmit} noValidate>
      <AccountFormField
        label="New password"
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={fields.password}
        onChange={(event) => setFields((current) => ({ ...current, password: event.target.value }))}
        errors={form.errors.byParam.password}
      />
      <AccountFormField
        label="New password (again)"
        type="password"
        name="password2"
        autoComplete="new-password"
        required
        value={fields.password2}
        onChange={(event) => setFields((current) => ({ ...current, password2: event.target.value }))}
        errors={form.errors.byParam.password2}
      />
      <FormGeneralErrors errors={[...form.errors.general, ...(form.errors.byParam.key ?? [])]} />
      <Button type="submit" disabled={form.submitting}>
        Set new password
      </Button>
    </form>
  );
}
