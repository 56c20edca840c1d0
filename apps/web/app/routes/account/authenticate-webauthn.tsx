import { accountPageMeta } from "../../account/account-meta.ts";
import { SignInStepRoute } from "../../login-modal/SignInStepRoute.tsx";
import { WebAuthnStepPage } from "../../mfa/WebAuthnStepPage.tsx";

export const meta = accountPageMeta("Two-factor authentication");

export default function Route() {
  return (
    <SignInStepRoute>
      <WebAuthnStepPage step="authenticate" />
    </SignInStepRoute>
  );
}
