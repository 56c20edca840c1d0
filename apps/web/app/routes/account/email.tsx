import { useRevalidator } from "react-router";
import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { EmailAddressesLoading, EmailAddressesPage, loadEmailAddresses } from "../../account/EmailAddressesPage.tsx";
import { GuardedLoading } from "../../account/guarded-loading.tsx";
import { authClient } from "../../lib/auth.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import type { Route } from "./+types/email";

export const meta = accountPageMeta("E-mail addresses");

export function clientLoader() {
  return loadEmailAddresses(authClient);
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
      <EmailAddressesPage data={loaderData} reload={revalidator.revalidate} />
    </ProtectedRoute>
  );
}
