import { createAccountDeletionClient } from "@atelier/site-api";
import { createClientContext } from "../lib/client-context.tsx";
import { siteHttp } from "../lib/site-http.ts";

/** The account deletion's client (`@atelier/site-api` holds its types and texts): the delete page gets it from the hook. */
export const accountDeletionClient = createAccountDeletionClient(siteHttp);
export const { Provider: AccountDeletionClientProvider, useClient: useAccountDeletionClient } = createClientContext(accountDeletionClient);
