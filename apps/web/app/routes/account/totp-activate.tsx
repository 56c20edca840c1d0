import { ProtectedRoute, useConfiguration } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { TotpActivatePage } from "../../mfa/TotpActivatePage.tsx";

export const meta = accountPageMeta("Activate the authenticator app");

export default function Route() {
  const supportedTypes = useConfiguration()?.mfa?.supported_types ?? [];
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <TotpActivatePage recoveryCodesSupported={supportedTypes.includes("recovery_codes")} />
    </ProtectedRoute>
  );
}
