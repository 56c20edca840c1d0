import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { ProviderSignupPage } from "../../providers/ProviderSignupPage.tsx";

export const meta = accountPageMeta("Complete your sign-up");

export default function ProviderSignupRoute() {
  return (
    <AnonymousRoute>
      <ProviderSignupPage />
    </AnonymousRoute>
  );
}
