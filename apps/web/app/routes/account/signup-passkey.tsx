import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { PasskeySignupPage } from "../../mfa/PasskeySignupPages.tsx";

export const meta = accountPageMeta("Sign up using a passkey");

export default function Route() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <PasskeySignupPage />
    </AnonymousRoute>
  );
}
