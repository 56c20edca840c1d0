import { ProtectedRoute } from "@atelier/auth/react";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { SecurityEventsPage } from "../../account/SecurityEventsPage.tsx";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = accountPageMeta("Account history");

export default function SecurityEventsRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <AccountPage title="Account history" lead="What happened to your account, newest first.">
        <SecurityEventsPage />
      </AccountPage>
    </ProtectedRoute>
  );
}
