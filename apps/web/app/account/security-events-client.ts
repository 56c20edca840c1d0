import { createSecurityEventsClient } from "@atelier/site-api";
import { createClientContext } from "../lib/client-context.tsx";
import { siteHttp } from "../lib/site-http.ts";

/** The account history's client (`@atelier/site-api` holds its types and texts): loaders import it, components use the hook. */
export const securityEventsClient = createSecurityEventsClient(siteHttp);
export const { Provider: SecurityEventsClientProvider, useClient: useSecurityEventsClient } = createClientContext(securityEventsClient);
