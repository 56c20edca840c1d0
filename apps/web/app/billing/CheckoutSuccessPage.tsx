import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { Button } from "@atelier/ui";
import type { PricingNavigationState } from "./billing-meta.ts";

export type CheckoutOutcome = "success" | "canceled" | "none";

/** The query of /checkout-success (spec §2.3): success wins over canceled; neither is 'none'. */
export function checkoutOutcomeFromSearchParams(searchParams: URLSearchParams): CheckoutOutcome {
  if (searchParams.has("success") && searchParams.get("success") !== "false") return "success";
  if (searchParams.has("canceled") && searchParams.get("canceled") !== "false") return "canceled";
  return "none";
}

// One object for every render: `<Navigate>` navigates again whenever its state changes identity, and this page renders
// again while /pricing's loader runs, which a new object each time would restart without end.
const canceledCheckoutState: PricingNavigationState = { checkoutCanceled: true };

/** /checkout-success (spec §2.3): the confirmation with a manage-billing button, or back to /pricing (with the cancel text when cancelled). */
export function CheckoutSuccessPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const outcome = checkoutOutcomeFromSearchParams(searchParams);
  const sessionId = searchParams.get("session_id");

  switch (outcome) {
    case "success":
      return (
        <section className="page page--narrow billing-page" aria-labelledby="checkout-result-heading">
          <h1 id="checkout-result-heading">Subscription confirmed</h1>
          <p className="billing-success" role="status">
            Thank you! Your subscription is active.
          </p>
          {sessionId ? <p className="billing-reference">Reference: {sessionId}</p> : null}
          <div className="billing-actions">
            <Button onClick={() => void navigate("/stripe-portal-session")}>Manage billing</Button>
            <Link to="/dashboard">Go to your dashboard</Link>
          </div>
        </section>
      );
    case "canceled":
      // Spec §2.3: a cancelled checkout goes back to the plans, where the cancel text is shown.
      return <Navigate to="/pricing" replace state={canceledCheckoutState} />;
    case "none":
      return <Navigate to="/pricing" replace />;
    default:
      return outcome satisfies never;
  }
}
