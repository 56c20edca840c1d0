import { useState, type FormEvent } from "react";
import { Navigate, useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { useAuthClient, useAuthStatus } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { SignInStepRoute } from "../../login-modal/SignInStepRoute.tsx";

export const meta = accountPageMeta("Enter your sign-in code");

function ConfirmLoginCodeForm() {
  const authClient = useAuthClient();
  const [code, setCode] = useState("");
  const form = useAllauthForm();
  const navigate = useNavigate();
  const { pendingFlow, loadState } = useAuthStatus();

  if (loadState === "ready" && pendingFlow?.id !== "login_by_code") return <Navigate to="/account/login/code" replace />;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await form.submit(() => authClient.confirmLoginCode({ code }));
    // 409: the flow is no longer valid (expired or too many attempts), so the code must be requested again.
    if (result?.status === 409) navigate("/account/login/code", { replace: true });
  };

  return (
    <AccountPage title="Enter your sign-in code" lead="The code was sent to your e-mail address. It expires shortly.">
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Code" name="code" autoComplete="one-time-code" required value={code} onChange={(event) => setCode(event.target.value)} errors={form.errors.byParam.code} />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          Sign in
        </Button>
      </form>
    </AccountPage>
  );
}

export default function LoginCodeConfirmRoute() {
  return (
    <SignInStepRoute>
      <ConfirmLoginCodeForm />
    </SignInStepRoute>
  );
}
