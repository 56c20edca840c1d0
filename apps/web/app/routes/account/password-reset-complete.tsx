import { Navigate, useLocation } from "react-router";
import { AnonymousRoute } from "@atelier/auth/react";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { SetNewPasswordForm } from "../../account/SetNewPasswordForm.tsx";

export const meta = accountPageMeta("Set a new password");

function CompletePasswordReset() {
  const location = useLocation();
  const resetKey = (location.state as { key?: string } | null)?.key;
  // The key arrives through navigation state from the confirm page; without it there is nothing to complete.
  if (!resetKey) return <Navigate to="/account/password/reset" replace />;
  return (
    <AccountPage title="Set a new password">
      <SetNewPasswordForm resetKey={resetKey} />
    </AccountPage>
  );
}

export default function PasswordResetCompleteRoute() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <CompletePasswordReset />
    </AnonymousRoute>
  );
}
