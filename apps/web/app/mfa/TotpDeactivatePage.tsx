import { useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { useAuthClient } from "@atelier/auth/react";
import { FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";

/** /account/2fa/totp/deactivate: `DELETE account/authenticators/totp` (a 401 asks for a reauthentication first). */
export function TotpDeactivatePage() {
  const client = useAuthClient();
  const form = useAllauthForm();
  const navigate = useNavigate();
  const deactivate = async () => {
    const result = await form.submit(() => client.deactivateTotp());
    if (result?.status === 200) navigate("/account/2fa");
  };
  return (
    <AccountPage title="Deactivate the authenticator app" lead="You will no longer be asked for a code from your authenticator app when you sign in.">
      <FormGeneralErrors errors={form.errors.general} />
      <Button onClick={deactivate} disabled={form.submitting}>
        Deactivate
      </Button>
    </AccountPage>
  );
}
