import { accountPageMeta } from "../../account/account-meta.ts";
import { SignInStepRoute } from "../../login-modal/SignInStepRoute.tsx";
import { CodeStepPage } from "../../mfa/CodeStepPage.tsx";

export const meta = accountPageMeta("Two-factor authentication");

export default function Route() {
  return (
    <SignInStepRoute>
      <CodeStepPage step="authenticate" type="totp" />
    </SignInStepRoute>
  );
}
