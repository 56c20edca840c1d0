import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { Spinner } from "@atelier/ui";
import { useBillingClient } from "./billing-client.ts";
import { readPriceIdFromState, type PricingNavigationState } from "./billing-meta.ts";

export interface CheckoutSessionPageProps {
  /** Sends the browser to the checkout; tests pass a spy. */
  assignLocation?: (url: string) => void;
}

/**
 * /checkout-session (spec 4.4): the price id arrives in navigation state; create the checkout session and send the
 * browser to its url. A failure goes back to /pricing with 'Failed to create checkout session: {body}' (spec §8).
 */
export function CheckoutSessionPage({ assignLocation = (url) => window.location.assign(url) }: CheckoutSessionPageProps) {
  const client = useBillingClient();
  const navigate = useNavigate();
  const location = useLocation();
  const priceId = readPriceIdFromState(location.state);
  const [errorMessage, setErrorMessage] = useState<string | undefined>(undefined);
  // Strict mode runs effects twice in development; one checkout session per visit is enough.
  const startedForPriceId = useRef<string | undefined>(undefined);
  const latestAssignLocation = useRef(assignLocation);
  latestAssignLocation.current = assignLocation;

  useEffect(() => {
    if (priceId === undefined) {
      void navigate("/pricing", { replace: true });
      return;
    }
    if (startedForPriceId.current === priceId) return;
    startedForPriceId.current = priceId;
    void client.createCheckoutSession(priceId).then((result) => {
      if (result.status === "ok") {
        latestAssignLocation.current(result.data.url);
        return;
      }
      setErrorMessage(result.message);
      const state: PricingNavigationState = { checkoutError: result.message };
      void navigate("/pricing", { replace: true, state });
    });
  }, [client, navigate, priceId]);

  return (
    <section className="page page--narrow billing-page" aria-labelledby="checkout-session-heading">
      <h1 id="checkout-session-heading">Checkout</h1>
      {errorMessage ? (
        <>
          <p className="billing-error" role="alert">
            {errorMessage}
          </p>
          <p>
            <Link to="/pricing">Back to the plans</Link>
          </p>
        </>
      ) : (
        <div className="billing-loading">
          <Spinner label="Opening the secure checkout" />
          <p aria-hidden="true">Opening the secure checkout…</p>
        </div>
      )}
    </section>
  );
}
