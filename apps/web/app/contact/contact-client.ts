import { createContactClient } from "@atelier/site-api";
import { createClientContext } from "../lib/client-context.tsx";
import { siteHttp } from "../lib/site-http.ts";

/** The contact form's client (spec §7; `@atelier/site-api` holds its texts): the form gets it through the hook. */
export const contactClient = createContactClient(siteHttp);
export const { Provider: ContactClientProvider, useClient: useContactClient } = createClientContext(contactClient);
