import { ProtectedRoute, useConfiguration } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { authClient, authStore } from "../../lib/auth.ts";
import { loadForSignedInUser } from "../../lib/guarded-load.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { loadTotpActivation, TotpActivatePage, TotpActivationLoading } from "../../mfa/TotpActivatePage.tsx";
import type { Route } from "./+types/totp-activate";

export const meta = accountPageMeta("Activate the authenticator app");

export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadTotpActivation(authClient));
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-in">
      <TotpActivationLoading />
    </GuardedLoading>
  );
}

export default function TotpActivateRoute({ loaderData }: Route.ComponentProps) {
  const supportedTypes = useConfiguration()?.mfa?.supported_types ?? [];
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      {/* Skipped for a signed-out visitor; a sign-in in the login modal reloads the page. */}
      {loaderData.state === "loaded" ? (
        <TotpActivatePage data={loaderData.data} recoveryCodesSupported={supportedTypes.includes("recovery_codes")} />
      ) : (
        <TotpActivationLoading />
      )}
    </ProtectedRoute>
  );
}
