import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { billingClient } from "./billing-client.ts";
import { type BillingClient } from "@atelier/site-api";
import { NO_SUBSCRIPTION, type SubscriptionStatus } from "@atelier/site-api";

const BillingClientContext = createContext<BillingClient>(billingClient);

/** Lets tests (and stories) hand the screens a client over a fake fetch; the app uses the default client. */
export function BillingClientProvider({ client, children }: { client: BillingClient; children: ReactNode }) {
  return <BillingClientContext.Provider value={client}>{children}</BillingClientContext.Provider>;
}

export function useBillingClient(): BillingClient {
  return useContext(BillingClientContext);
}

export type SubscriptionStatusLoadState = "idle" | "loading" | "ready" | "error";

export interface SubscriptionStatusView {
  loadState: SubscriptionStatusLoadState;
  /** Undefined until loaded; after a failure, the cleared status (spec §8). */
  status: SubscriptionStatus | undefined;
}

/**
 * Loads the subscription status while `enabled` (a signed-in user); a failed call clears the data (spec §8).
 *
 * @example
 * const { loadState, status } = useSubscriptionStatus(isAuthenticated);
 */
export function useSubscriptionStatus(enabled: boolean): SubscriptionStatusView {
  const client = useBillingClient();
  const [view, setView] = useState<SubscriptionStatusView>({ loadState: "idle", status: undefined });

  useEffect(() => {
    if (!enabled) {
      setView({ loadState: "idle", status: undefined });
      return;
    }
    let isCurrent = true;
    setView((previous) => ({ loadState: "loading", status: previous.status }));
    void client.loadSubscriptionStatus().then((result) => {
      if (!isCurrent) return;
      if (result.status === "ok") setView({ loadState: "ready", status: result.data });
      else {
        console.error(result.message);
        setView({ loadState: "error", status: NO_SUBSCRIPTION });
      }
    });
    return () => {
      isCurrent = false;
    };
  }, [client, enabled]);

  return view;
}
