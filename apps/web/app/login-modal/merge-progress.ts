import { createProgressMergeClient } from "@atelier/site-api";
import { createClientContext } from "../lib/client-context.tsx";
import { siteHttp } from "../lib/site-http.ts";

/**
 * The progress-merge client: the spec's call after a sign-in in the login modal (§4.2). The server has merged already
 * as it signed the user in, so the call is a formality. Route modules import the instance; components use the hook.
 */
export const progressMergeClient = createProgressMergeClient(siteHttp);
export const { Provider: ProgressMergeClientProvider, useClient: useProgressMergeClient } = createClientContext(progressMergeClient);
