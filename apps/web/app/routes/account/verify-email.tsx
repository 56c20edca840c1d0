import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useAuthClient, useAuthStatus } from "@atelier/auth/react";
import { Button } from "@atelier/ui";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAccountSettings } from "../../account/auth-hooks.ts";
import { pendingFlowPath } from "../../account/pending-flow-path.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";

export const meta = accountPageMeta("Confirm your e-mail address");

function VerifyEmailByCode() {
  const authClient = useAuthClient();
  const [code, setCode] = useState("");
  const form = useAllauthForm();
  const navigate = useNavigate();
  const { isAuthenticated: wasAuthenticated } = useAuthStatus();
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await form.submit(() => authClient.verifyEmail({ key: code }));
    // 200 and 401 are both a success (spec 4.3). A 200 that completes a sign-up is a login: the redirector takes
    // the visitor to the dashboard; an address added by a signed-in user goes back to the address list.
    // A 401 with a pending flow (a passkey sign-up goes on to create its passkey) continues on that flow's page.
    if (result?.status === 401) navigate(pendingFlowPath(result) ?? "/account/email");
    else if (result?.status === 200 && wasAuthenticated) navigate("/account/email");
  };
  const resend = async () => {
    await form.submit(() => authClient.resendEmailVerification());
  };
  return (
    <AccountPage title="Confirm your e-mail address" lead="We have sent a code to your e-mail address. Enter it below to confirm the address.">
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Code" name="code" autoComplete="one-time-code" required value={code} onChange={(event) => setCode(event.target.value)} errors={form.errors.byParam.key ?? form.errors.byParam.code} />
        <FormGeneralErrors errors={form.errors.general} />
        <div className="account-form__actions">
          <Button type="submit" disabled={form.submitting}>
            Confirm
          </Button>
          <Button type="button" variant="secondary" onClick={resend} disabled={form.submitting}>
            Send a new code
          </Button>
        </div>
      </form>
    </AccountPage>
  );
}

/** The notice page: with verification by link, there is nothing to type, only a mail to open. */
function VerifyEmailNotice() {
  return (
    <AccountPage title="Please confirm your e-mail address">
      <p>We have sent an e-mail to you for verification. Follow the link provided to finalize the signup process.</p>
      <p>If you do not see it in your inbox within a few minutes, check your spam folder.</p>
    </AccountPage>
  );
}

export default function VerifyEmailRoute() {
  const { emailVerificationByCodeEnabled } = useAccountSettings();
  return emailVerificationByCodeEnabled ? <VerifyEmailByCode /> : <VerifyEmailNotice />;
}
