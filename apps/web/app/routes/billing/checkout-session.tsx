import { ProtectedRoute } from "@atelier/auth/react";
import { CheckoutSessionPage } from "../../billing/CheckoutSessionPage.tsx";
import { billingPageMeta } from "../../billing/billing-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = billingPageMeta("Checkout");

export default function CheckoutSessionRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <CheckoutSessionPage />
    </ProtectedRoute>
  );
}
