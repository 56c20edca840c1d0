import { Link } from "react-router";
import { Spinner } from "@atelier/ui";
import type { AllauthClient } from "@atelier/auth";
import { AccountPage } from "./AccountPage.tsx";
import { SetNewPasswordForm } from "./SetNewPasswordForm.tsx";

const SET_NEW_PASSWORD_TITLE = "Set a new password";

/** Whether the reset link's key can still set a password. */
export type PasswordResetKeyData = { state: "valid" } | { state: "invalid" };

/**
 * The reset link's `clientLoader` (routes/account/password-reset-key.tsx): asks whether the key is still good, a plain
 * function so tests call it with a fake client. A failed call is an invalid link, as before.
 */
export async function checkPasswordResetKey(client: Pick<AllauthClient, "getPasswordResetKeyInfo">, key: string): Promise<PasswordResetKeyData> {
  try {
    return (await client.getPasswordResetKeyInfo(key)).status === 200 ? { state: "valid" } : { state: "invalid" };
  } catch {
    return { state: "invalid" };
  }
}

/** Shown while the link's key is checked on a first visit (the route's `HydrateFallback`). */
export function PasswordResetKeyLoading() {
  return (
    <AccountPage title={SET_NEW_PASSWORD_TITLE}>
      <Spinner label="Checking the link" />
    </AccountPage>
  );
}

/** /account/password/reset/key/:key: the new password, or why the link cannot set one, from the route's loader data. */
export function PasswordResetKeyPage({ resetKey, data }: { resetKey: string; data: PasswordResetKeyData }) {
  return (
    <AccountPage title={SET_NEW_PASSWORD_TITLE}>
      {data.state === "invalid" ? (
        <p role="alert">
          The password reset link was invalid, possibly because it has already been used. Please <Link to="/account/password/reset">request a new one</Link>.
        </p>
      ) : (
        <SetNewPasswordForm resetKey={resetKey} />
      )}
    </AccountPage>
  );
}
