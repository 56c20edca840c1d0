import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { AddSecurityKeyPage } from "../../mfa/AddSecurityKeyPage.tsx";

export const meta = accountPageMeta("Add a security key");

export default function Route() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <AddSecurityKeyPage />
    </ProtectedRoute>
  );
}
