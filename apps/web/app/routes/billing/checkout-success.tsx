import { ProtectedRoute } from "@atelier/auth/react";
import { CheckoutSuccessPage } from "../../billing/CheckoutSuccessPage.tsx";
import { billingPageMeta } from "../../billing/billing-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = billingPageMeta("Subscription");

export default function CheckoutSuccessRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <CheckoutSuccessPage />
    </ProtectedRoute>
  );
}
