import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { RecoveryCodesPage } from "../../mfa/RecoveryCodesPage.tsx";

export const meta = accountPageMeta("Recovery codes");

export default function Route() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <RecoveryCodesPage />
    </ProtectedRoute>
  );
}
