import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { Spinner } from "@atelier/ui";
import { useAuthStatus } from "@atelier/auth/react";
import { hasSignedInHint } from "../lib/auth.ts";
import { pricingErrorText } from "@atelier/site-api";
import { useBillingClient, useSubscriptionStatus } from "./billing-context.tsx";
import { PRICING_LOGIN_PATH, readCheckoutErrorFromState, type PriceNavigationState } from "./billing-meta.ts";
import type { PricingInterval, PricingProduct } from "@atelier/site-api";
import { IntervalToggle } from "./IntervalToggle.tsx";
import { PlanCard } from "./PlanCard.tsx";
import { planCardState, productsForInterval, type PlanCardState } from "./plan-card-state.ts";

type PricingView = { state: "loading" } | { state: "ready"; products: PricingProduct[] } | { state: "error"; message: string };

export interface PricingPageProps {
  /** The clock for days left; tests pass a fixed one. */
  now?: () => number;
}

/** /pricing (spec 4.4): the interval toggle and the plan cards, for visitors and subscribers alike. */
export function PricingPage({ now = Date.now }: PricingPageProps) {
  const client = useBillingClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { loadState, isAuthenticated } = useAuthStatus();
  const isSignedIn = loadState === "ready" && isAuthenticated;
  const subscription = useSubscriptionStatus(isSignedIn);
  const [interval, setSelectedInterval] = useState<PricingInterval>("month");
  const [view, setView] = useState<PricingView>({ state: "loading" });
  const checkoutError = readCheckoutErrorFromState(location.state);

  useEffect(() => {
    let isCurrent = true;
    void client.loadPricing().then((result) => {
      if (!isCurrent) return;
      setView(result.status === "ok" ? { state: "ready", products: result.data } : { state: "error", message: result.message });
    });
    return () => {
      isCurrent = false;
    };
  }, [client]);

  const choose = (product: PricingProduct, state: PlanCardState) => {
    if (!isSignedIn) {
      void navigate(PRICING_LOGIN_PATH);
      return;
    }
    const navigationState: PriceNavigationState = { priceId: product.stripe_id };
    // A subscriber changes plan in the billing portal; a new subscription starts with a checkout.
    void navigate(state.kind === "choose" ? "/checkout-session" : "/stripe-portal-session", { state: navigationState });
  };

  // A browser that signed in before waits for its status rather than flashing 'Choose plan' on every card.
  const isWaitingForAuthentication = loadState === "loading" && hasSignedInHint();
  const isWaitingForSubscription = isWaitingForAuthentication || (isSignedIn && (subscription.loadState === "idle" || (subscription.loadState === "loading" && subscription.status === undefined)));
  const nowMilliseconds = now();

  return (
    <section className="page pricing-page" aria-labelledby="pricing-heading">
      <h1 id="pricing-heading">Pricing</h1>
      <p className="page-subtitle">Pick the plan that suits you; you can change or cancel it at any time.</p>
      {checkoutError ? (
        <p className="billing-error" role="alert">
          {checkoutError}
        </p>
      ) : null}
      <IntervalToggle interval={interval} onChange={setSelectedInterval} />
      {view.state === "loading" || (view.state === "ready" && isWaitingForSubscription) ? (
        <div className="billing-loading">
          <Spinner label="Loading the plans" />
        </div>
      ) : view.state === "error" ? (
        <p className="billing-error" role="alert">
          {pricingErrorText(view.message)}
        </p>
      ) : (
        <PlanGrid products={productsForInterval(view.products, interval)} choose={choose} stateOf={(product) => planCardState(product, subscription.status, nowMilliseconds, view.products)} />
      )}
    </section>
  );
}

function PlanGrid({ products, choose, stateOf }: { products: PricingProduct[]; choose: (product: PricingProduct, state: PlanCardState) => void; stateOf: (product: PricingProduct) => PlanCardState }) {
  if (products.length === 0) return <p>No plans are offered at this interval.</p>;
  return (
    <ul className="plan-grid" aria-label="Plans">
      {products.map((product) => (
        <li key={product.stripe_id}>
          <PlanCard product={product} state={stateOf(product)} onChoose={choose} />
        </li>
      ))}
    </ul>
  );
}
