import { createBillingClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

/** The client the subscription screens use (`@atelier/site-api` holds its types, schemas and texts). */
export const billingClient = createBillingClient(siteHttp);
