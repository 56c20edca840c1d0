import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { SecurityKeyList } from "../../mfa/SecurityKeyList.tsx";

export const meta = accountPageMeta("Security keys");

export default function Route() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <SecurityKeyList />
    </ProtectedRoute>
  );
}
