import { ProtectedRoute, useAuthStatus, useAuthStoreApi } from "@atelier/auth/react";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { DeleteAccountPage } from "../../account/DeleteAccountPage.tsx";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = accountPageMeta("Delete your account");

function DeleteAccount() {
  const { user } = useAuthStatus();
  const authStore = useAuthStoreApi();
  return (
    <AccountPage title="Delete your account" lead="Everything Atelier keeps about you goes, at once.">
      <DeleteAccountPage email={user?.email ?? ""} onDeleted={() => authStore.getState().load()} />
    </AccountPage>
  );
}

export default function DeleteAccountRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <DeleteAccount />
    </ProtectedRoute>
  );
}
