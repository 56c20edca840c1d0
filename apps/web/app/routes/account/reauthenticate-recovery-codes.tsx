import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { CodeStepPage } from "../../mfa/CodeStepPage.tsx";

export const meta = accountPageMeta("Confirm it is you");

export default function Route() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <CodeStepPage step="reauthenticate" type="recovery_codes" />
    </ProtectedRoute>
  );
}
