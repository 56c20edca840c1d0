import { useRevalidator } from "react-router";
import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { EmailAddressesLoading, EmailAddressesPage, loadEmailAddresses } from "../../account/EmailAddressesPage.tsx";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { authClient, authStore } from "../../lib/auth.ts";
import { loadForSignedInUser } from "../../lib/guarded-load.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import type { Route } from "./+types/email";

export const meta = accountPageMeta("E-mail addresses");

export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadEmailAddresses(authClient));
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-in">
      <EmailAddressesLoading />
    </GuardedLoading>
  );
}

export default function EmailRoute({ loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      {loaderData.state === "loaded" ? <EmailAddressesPage data={loaderData.data} reload={revalidator.revalidate} /> : <EmailAddressesLoading />}
    </ProtectedRoute>
  );
}
