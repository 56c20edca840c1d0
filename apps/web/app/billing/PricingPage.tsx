import { useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { Spinner } from "@atelier/ui";
import { pricingErrorText, type BillingClient, type PricingInterval, type PricingProduct, type SubscriptionStatus } from "@atelier/site-api";
import { CHECKOUT_CANCELED_TEXT, PRICING_LOGIN_PATH, readCheckoutCanceledFromState, readCheckoutErrorFromState, type PriceNavigationState } from "./billing-meta.ts";
import { IntervalToggle } from "./IntervalToggle.tsx";
import { PlanCard } from "./PlanCard.tsx";
import { planCardState, productsForInterval, type PlanCardState } from "./plan-card-state.ts";
import { loadSubscriptionStatus } from "./subscription-status.ts";

/** What /pricing shows: the plans with the visitor's subscription (none when signed out), or the pricing's error. */
export type PricingData =
  | { state: "ready"; products: PricingProduct[]; isSignedIn: boolean; subscription: SubscriptionStatus | undefined }
  | { state: "error"; message: string };

/**
 * The pricing's `clientLoader` (routes/billing/pricing.tsx), a plain function so tests call it with a fake client. The
 * plans and the sign-in status are asked for at once; the subscription status only for a signed-in visitor, and a
 * failed one is cleared (spec §8).
 */
export async function loadPricing(client: BillingClient, signedIn: boolean | Promise<boolean>): Promise<PricingData> {
  const subscriptionRequest = Promise.resolve(signedIn).then(async (isSignedIn) => (isSignedIn ? (await loadSubscriptionStatus(client)).status : undefined));
  const [pricing, subscription] = await Promise.all([client.loadPricing(), subscriptionRequest]);
  if (pricing.status === "error") return { state: "error", message: pricing.message };
  return { state: "ready", products: pricing.data, isSignedIn: await signedIn, subscription };
}

/** The page's heading and what became of a checkout (its error, or its cancellation), above the toggle and the cards. */
function PricingHeader() {
  const navigationState: unknown = useLocation().state;
  const checkoutError = readCheckoutErrorFromState(navigationState);
  return (
    <>
      <h1 id="pricing-heading">Pricing</h1>
      <p className="page-subtitle">Pick the plan that suits you; you can change or cancel it at any time.</p>
      {readCheckoutCanceledFromState(navigationState) ? (
        <p className="billing-notice" role="status">
          {CHECKOUT_CANCELED_TEXT}
        </p>
      ) : null}
      {checkoutError ? (
        <p className="billing-error" role="alert">
          {checkoutError}
        </p>
      ) : null}
    </>
  );
}

/** Shown while the plans load on a first visit (the route's `HydrateFallback`). */
export function PricingLoading() {
  return (
    <section className="page pricing-page" aria-labelledby="pricing-heading">
      <PricingHeader />
      <div className="billing-loading">
        <Spinner label="Loading the plans" />
      </div>
    </section>
  );
}

export interface PricingPageProps {
  data: PricingData;
  /** The clock for days left; tests pass a fixed one. */
  now?: () => number;
}

/** /pricing (spec 4.4): the interval toggle and the plan cards, for visitors and subscribers alike, from its route's loader data. */
export function PricingPage({ data, now = Date.now }: PricingPageProps) {
  const navigate = useNavigate();
  const [interval, setSelectedInterval] = useState<PricingInterval>("month");

  const choose = (product: PricingProduct, state: PlanCardState) => {
    if (data.state !== "ready" || !data.isSignedIn) {
      void navigate(PRICING_LOGIN_PATH);
      return;
    }
    const navigationState: PriceNavigationState = { priceId: product.stripe_id };
    // A subscriber changes plan in the billing portal; a new subscription starts with a checkout.
    void navigate(state.kind === "choose" ? "/checkout-session" : "/stripe-portal-session", { state: navigationState });
  };

  const nowMilliseconds = now();

  return (
    <section className="page pricing-page" aria-labelledby="pricing-heading">
      <PricingHeader />
      <IntervalToggle interval={interval} onChange={setSelectedInterval} />
      {data.state === "error" ? (
        <p className="billing-error" role="alert">
          {pricingErrorText(data.message)}
        </p>
      ) : (
        <PlanGrid products={productsForInterval(data.products, interval)} choose={choose} stateOf={(product) => planCardState(product, data.subscription, nowMilliseconds, data.products)} />
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
