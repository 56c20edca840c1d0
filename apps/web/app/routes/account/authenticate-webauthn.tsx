import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { WebAuthnStepPage } from "../../mfa/WebAuthnStepPage.tsx";

export const meta = accountPageMeta("Two-factor authentication");

export default function Route() {
  return (
    <AnonymousRoute>
      <WebAuthnStepPage step="authenticate" />
    </AnonymousRoute>
  );
}
