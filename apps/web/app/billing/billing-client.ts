import { createBillingClient } from "@atelier/site-api";
import { createClientContext } from "../lib/client-context.tsx";
import { siteHttp } from "../lib/site-http.ts";

/** The subscription API's client (`@atelier/site-api` holds its types, schemas and texts): loaders import it, components use the hook. */
export const billingClient = createBillingClient(siteHttp);
export const { Provider: BillingClientProvider, useClient: useBillingClient } = createClientContext(billingClient);
