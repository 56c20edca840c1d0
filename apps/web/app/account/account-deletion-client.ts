import { createAccountDeletionClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

export { ACCOUNT_DELETION_ERROR_MESSAGE, ACCOUNT_DELETION_PATH, createAccountDeletionClient } from "@atelier/site-api";
export type { AccountDeletionClient, AccountDeletionResult } from "@atelier/site-api";

export const accountDeletionClient = createAccountDeletionClient(siteHttp);
