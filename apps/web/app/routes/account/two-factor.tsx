import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { TwoFactorOverview } from "../../mfa/TwoFactorOverview.tsx";

export const meta = accountPageMeta("Two-factor authentication");

export default function Route() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <TwoFactorOverview />
    </ProtectedRoute>
  );
}
