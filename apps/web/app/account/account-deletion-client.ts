import { createAccountDeletionClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

/** The client of the account deletion page (`@atelier/site-api` holds its types and texts). */
export const accountDeletionClient = createAccountDeletionClient(siteHttp);
