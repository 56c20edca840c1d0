import { useEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { Spinner } from "@atelier/ui";
import { AnonymousRoute } from "@atelier/auth/react";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { SetNewPasswordForm } from "../../account/SetNewPasswordForm.tsx";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { authClient } from "../../lib/auth.ts";

export const meta = accountPageMeta("Set a new password");

function PasswordResetFromKey() {
  const { key = "" } = useParams();
  const [keyState, setKeyState] = useState<"loading" | "valid" | "invalid">("loading");

  useEffect(() => {
    let cancelled = false;
    authClient
      .getPasswordResetKeyInfo(key)
      .then((result) => !cancelled && setKeyState(result.status === 200 ? "valid" : "invalid"))
      .catch(() => !cancelled && setKeyState("invalid"));
    return () => {
      cancelled = true;
    };
  }, [key]);

  return (
    <AccountPage title="Set a new password">
      {keyState === "loading" ? <Spinner label="Checking the link" /> : null}
      {keyState === "invalid" ? (
        <p role="alert">
          The password reset link was invalid, possibly because it has already been used. Please <Link to="/account/password/reset">request a new one</Link>.
        </p>
      ) : null}
      {keyState === "valid" ? <SetNewPasswordForm resetKey={key} /> : null}
    </AccountPage>
  );
}

export default function PasswordResetKeyRoute() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <PasswordResetFromKey />
    </AnonymousRoute>
  );
}
