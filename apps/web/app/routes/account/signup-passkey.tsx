import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { PasskeySignupPage } from "../../mfa/PasskeySignupPages.tsx";

export const meta = accountPageMeta("Sign up using a passkey");

export default function Route() {
  return (
    <AnonymousRoute>
      <PasskeySignupPage />
    </AnonymousRoute>
  );
}
