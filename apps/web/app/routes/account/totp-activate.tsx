import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { TotpActivatePage } from "../../mfa/TotpActivatePage.tsx";

export const meta = accountPageMeta("Activate the authenticator app");

export default function Route() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <TotpActivatePage />
    </ProtectedRoute>
  );
}
