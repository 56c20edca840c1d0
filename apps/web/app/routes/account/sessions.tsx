import { ProtectedRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../account/guarded-loading.tsx";
import { endSessionsFromRequest, loadSessions, SessionsLoading, SessionsPage } from "../../account/SessionsPage.tsx";
import { authClient } from "../../lib/auth.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import type { Route } from "./+types/sessions";

export const meta = accountPageMeta("Sessions");

export function clientLoader() {
  return loadSessions(authClient);
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
      <SessionsPage data={loaderData} />
    </ProtectedRoute>
  );
}
