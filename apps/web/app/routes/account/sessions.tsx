import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { endSessionsFromRequest, loadSessions, SessionsLoading, SessionsPage } from "../../account/SessionsPage.tsx";
import { authClient, authStore } from "../../lib/auth.ts";
import { loadForSignedInUser } from "../../lib/guarded-load.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import type { Route } from "./+types/sessions";

export const meta = accountPageMeta("Sessions");

export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadSessions(authClient));
}

export function clientAction({ request }: Route.ClientActionArgs) {
  return endSessionsFromRequest(authClient, request);
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-in">
      <SessionsLoading />
    </GuardedLoading>
  );
}

export default function SessionsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      {/* Skipped for a signed-out visitor; a sign-in in the login modal reloads the page. */}
      {loaderData.state === "loaded" ? <SessionsPage data={loaderData.data} /> : <SessionsLoading />}
    </ProtectedRoute>
  );
}
