import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { authClient, authStore } from "../../lib/auth.ts";
import { loadForSignedInUser } from "../../lib/guarded-load.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { loadProviderAccounts, ProviderAccountsLoading, ProviderAccountsPage } from "../../providers/ProviderAccountsPage.tsx";
import type { Route } from "./+types/providers";

export const meta = accountPageMeta("Third-party accounts");

export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadProviderAccounts(authClient));
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-in">
      <ProviderAccountsLoading />
    </GuardedLoading>
  );
}

export default function ProvidersRoute({ loaderData }: Route.ComponentProps) {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      {/* Skipped for a signed-out visitor; a sign-in in the login modal reloads the page. */}
      {loaderData.state === "loaded" ? <ProviderAccountsPage data={loaderData.data} /> : <ProviderAccountsLoading />}
    </ProtectedRoute>
  );
}
