import { useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { authClient } from "../../lib/auth.ts";

export const meta = accountPageMeta("Log out");

export default function LogoutRoute() {
  const form = useAllauthForm();
  const navigate = useNavigate();
  const handleLogout = async () => {
    const result = await form.submit(() => authClient.logout());
    if (result) navigate("/");
  };
  return (
    <AccountPage title="Log out">
      <p>Are you sure you want to logout?</p>
      <FormGeneralErrors errors={form.errors.general} />
      <Button onClick={handleLogout} disabled={form.submitting}>
        Logout
      </Button>
    </AccountPage>
  );
}
