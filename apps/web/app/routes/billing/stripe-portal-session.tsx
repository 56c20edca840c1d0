import { ProtectedRoute } from "@atelier/auth/react";
import { StripePortalSessionPage } from "../../billing/StripePortalSessionPage.tsx";
import { billingPageMeta } from "../../billing/billing-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = billingPageMeta("Billing");

export default function StripePortalSessionRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <StripePortalSessionPage />
    </ProtectedRoute>
  );
}
