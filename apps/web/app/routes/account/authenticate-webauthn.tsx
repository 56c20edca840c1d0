import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { WebAuthnStepPage } from "../../mfa/WebAuthnStepPage.tsx";

export const meta = accountPageMeta("Two-factor authentication");

export default function Route() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <WebAuthnStepPage step="authenticate" />
    </AnonymousRoute>
  );
}
