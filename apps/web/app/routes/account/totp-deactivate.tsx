import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { TotpDeactivatePage } from "../../mfa/TotpDeactivatePage.tsx";

export const meta = accountPageMeta("Deactivate the authenticator app");

export default function Route() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <TotpDeactivatePage />
    </ProtectedRoute>
  );
}
