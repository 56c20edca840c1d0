import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { LOGIN_REDIRECT_PATH } from "../../lib/auth-routes.ts";
import { CodeStepPage } from "../../mfa/CodeStepPage.tsx";

export const meta = accountPageMeta("Two-factor authentication");

export default function Route() {
  return (
    <AnonymousRoute redirectTo={LOGIN_REDIRECT_PATH}>
      <CodeStepPage step="authenticate" type="recovery_codes" />
    </AnonymousRoute>
  );
}
