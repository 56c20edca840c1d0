import { Link, useNavigate } from "react-router";
import { useAuthClient, useAuthStatus } from "@atelier/auth/react";
import { Button } from "@atelier/ui";
import { FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";

export const meta = accountPageMeta("Log out");

export default function LogoutRoute() {
  const authClient = useAuthClient();
  const form = useAllauthForm();
  const navigate = useNavigate();
  const { isAuthenticated, loadState } = useAuthStatus();
  const handleLogout = async () => {
    const result = await form.submit(() => authClient.logout());
    if (result) navigate("/");
  };
  // Nothing to end for a visitor who is not signed in: say so rather than offer a button that does nothing (issue 13).
  if (loadState === "ready" && !isAuthenticated) {
    return (
      <AccountPage title="Log out">
        <p role="status">You are not signed in.</p>
        <p>
          <Link to="/account/login">Log in</Link> or <Link to="/">go to the home page</Link>.
        </p>
      </AccountPage>
    );
  }
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
