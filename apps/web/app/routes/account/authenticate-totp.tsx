import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { CodeStepPage } from "../../mfa/CodeStepPage.tsx";

export const meta = accountPageMeta("Two-factor authentication");

export default function Route() {
  return (
    <AnonymousRoute>
      <CodeStepPage step="authenticate" type="totp" />
    </AnonymousRoute>
  );
}
