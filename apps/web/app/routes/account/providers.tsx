import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { ProviderAccountsPage } from "../../providers/ProviderAccountsPage.tsx";

export const meta = accountPageMeta("Third-party accounts");

export default function ProvidersRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <ProviderAccountsPage />
    </ProtectedRoute>
  );
}
