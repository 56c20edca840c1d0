import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { authClient, authStore } from "../../lib/auth.ts";
import { loadForSignedInUser } from "../../lib/guarded-load.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { loadAuthenticators } from "../../mfa/authenticators.ts";
import { SecurityKeyList, SecurityKeysLoading } from "../../mfa/SecurityKeyList.tsx";
import type { Route } from "./+types/webauthn";

export const meta = accountPageMeta("Security keys");

export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadAuthenticators(authClient));
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-in">
      <SecurityKeysLoading />
    </GuardedLoading>
  );
}

export default function SecurityKeysRoute({ loaderData }: Route.ComponentProps) {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      {/* Skipped for a signed-out visitor; a sign-in in the login modal reloads the page. */}
      {loaderData.state === "loaded" ? <SecurityKeyList data={loaderData.data} /> : <SecurityKeysLoading />}
    </ProtectedRoute>
  );
}
