import { createSecurityEventsClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

/** The client of the account's history page (`@atelier/site-api` holds its types and texts). */
export const securityEventsClient = createSecurityEventsClient(siteHttp);
