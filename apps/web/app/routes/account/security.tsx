import type { ReactNode } from "react";
import { ProtectedRoute } from "@atelier/auth/react";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { authStore } from "../../lib/auth.ts";
import { loadForSignedInUser } from "../../lib/guarded-load.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { securityEventsClient } from "../../account/security-events-client.ts";
import { loadSecurityEvents, SecurityEventsLoading, SecurityEventsPage } from "../../account/SecurityEventsPage.tsx";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import type { Route } from "./+types/security";

export const meta = accountPageMeta("Account history");

export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadSecurityEvents(securityEventsClient));
}

function SecurityEventsFrame({ children }: { children: ReactNode }) {
  return (
    <AccountPage title="Account history" lead="What happened to your account, newest first.">
      {children}
    </AccountPage>
  );
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-in">
      <SecurityEventsFrame>
        <SecurityEventsLoading />
      </SecurityEventsFrame>
    </GuardedLoading>
  );
}

export default function SecurityEventsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <SecurityEventsFrame>
        {loaderData.state === "loaded" ? <SecurityEventsPage data={loaderData.data} /> : <SecurityEventsLoading />}
      </SecurityEventsFrame>
    </ProtectedRoute>
  );
}
