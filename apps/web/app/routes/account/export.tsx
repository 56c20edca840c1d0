import { ProtectedRoute } from "@atelier/auth/react";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { DataExportPage } from "../../account/DataExportPage.tsx";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = accountPageMeta("Download your data");

export default function DataExportRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <AccountPage title="Download your data" lead="Everything Atelier keeps about you, to read or to take elsewhere.">
        <DataExportPage />
      </AccountPage>
    </ProtectedRoute>
  );
}
