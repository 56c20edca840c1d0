import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { PasskeyCreatePage } from "../../mfa/PasskeySignupPages.tsx";

export const meta = accountPageMeta("Create your passkey");

export default function Route() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <PasskeyCreatePage />
    </AnonymousRoute>
  );
}
