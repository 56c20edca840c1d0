import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { authClient, authStore } from "../../lib/auth.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { loadForSignedOutVisitor } from "../../lib/guarded-load.ts";
import { loadPasskeyCreation, PasskeyCreateLoading, PasskeyCreatePage } from "../../mfa/PasskeySignupPages.tsx";
import type { Route } from "./+types/signup-passkey-create";

export const meta = accountPageMeta("Create your passkey");

export function clientLoader() {
  return loadForSignedOutVisitor(authStore, (status) => loadPasskeyCreation(authClient, status));
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-out">
      <PasskeyCreateLoading />
    </GuardedLoading>
  );
}

export default function PasskeyCreateRoute({ loaderData }: Route.ComponentProps) {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      {/* Skipped for a signed-in user, whom the guard sends to the dashboard. */}
      {loaderData.state === "loaded" ? <PasskeyCreatePage data={loaderData.data} /> : null}
    </AnonymousRoute>
  );
}
