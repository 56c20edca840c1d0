import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { authClient, authStore } from "../../lib/auth.ts";
import { loadForSignedInUser } from "../../lib/guarded-load.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { loadAuthenticators } from "../../mfa/authenticators.ts";
import { TwoFactorOverview, TwoFactorOverviewLoading } from "../../mfa/TwoFactorOverview.tsx";
import type { Route } from "./+types/two-factor";

export const meta = accountPageMeta("Two-factor authentication");

export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadAuthenticators(authClient));
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-in">
      <TwoFactorOverviewLoading />
    </GuardedLoading>
  );
}

export default function TwoFactorRoute({ loaderData }: Route.ComponentProps) {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      {/* Skipped for a signed-out visitor; a sign-in in the login modal reloads the page. */}
      {loaderData.state === "loaded" ? <TwoFactorOverview data={loaderData.data} /> : <TwoFactorOverviewLoading />}
    </ProtectedRoute>
  );
}
