import { AnonymousRoute } from "@atelier/auth/react";
import { accountPageMeta } from "../../account/account-meta.ts";
import { PasskeyCreatePage } from "../../mfa/PasskeySignupPages.tsx";

export const meta = accountPageMeta("Create your passkey");

export default function Route() {
  return (
    <AnonymousRoute>
      <PasskeyCreatePage />
    </AnonymousRoute>
  );
}
