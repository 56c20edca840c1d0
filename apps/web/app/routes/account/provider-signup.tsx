import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { ProviderSignupPage } from "../../providers/ProviderSignupPage.tsx";

export const meta = accountPageMeta("Complete your sign-up");

export default function ProviderSignupRoute() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <ProviderSignupPage />
    </AnonymousRoute>
  );
}
