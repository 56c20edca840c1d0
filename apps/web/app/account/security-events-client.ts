import { createSecurityEventsClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

export { createSecurityEventsClient, describeSecurityEvent, SECURITY_EVENTS_ERROR_MESSAGE, SECURITY_EVENTS_PATH } from "@atelier/site-api";
export type { SecurityEvent, SecurityEvents, SecurityEventsClient, SecurityEventsResult } from "@atelier/site-api";

export const securityEventsClient = createSecurityEventsClient(siteHttp);
