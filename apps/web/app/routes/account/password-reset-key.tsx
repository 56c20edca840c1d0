import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { checkPasswordResetKey, PasswordResetKeyLoading, PasswordResetKeyPage } from "../../account/PasswordResetKeyPage.tsx";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { authClient } from "../../lib/auth.ts";
import type { Route } from "./+types/password-reset-key";

export const meta = accountPageMeta("Set a new password");

export function clientLoader({ params }: Route.ClientLoaderArgs) {
  return checkPasswordResetKey(authClient, params.key);
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-out">
      <PasswordResetKeyLoading />
    </GuardedLoading>
  );
}

export default function PasswordResetKeyRoute({ params, loaderData }: Route.ComponentProps) {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <PasswordResetKeyPage key={params.key} resetKey={params.key} data={loaderData} />
    </AnonymousRoute>
  );
}
