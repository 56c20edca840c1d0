import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { authClient, authStore } from "../../lib/auth.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { loadForSignedOutVisitor } from "../../lib/guarded-load.ts";
import { loadProviderSignup, ProviderSignupLoading, ProviderSignupPage } from "../../providers/ProviderSignupPage.tsx";
import type { Route } from "./+types/provider-signup";

export const meta = accountPageMeta("Complete your sign-up");

export function clientLoader() {
  return loadForSignedOutVisitor(authStore, () => loadProviderSignup(authClient));
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-out">
      <ProviderSignupLoading />
    </GuardedLoading>
  );
}

export default function ProviderSignupRoute({ loaderData }: Route.ComponentProps) {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      {/* Skipped for a signed-in user, whom the guard sends to the dashboard. */}
      {loaderData.state === "loaded" ? <ProviderSignupPage data={loaderData.data} /> : null}
    </AnonymousRoute>
  );
}
