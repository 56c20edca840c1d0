import { createStudyClient } from "@atelier/site-api";
import { createClientContext } from "../lib/client-context.tsx";
import { siteHttp } from "../lib/site-http.ts";

/** The study API's client (`@atelier/site-api` holds its types, schemas and texts): loaders import it, components use the hook. */
export const studyClient = createStudyClient(siteHttp);
export const { Provider: StudyClientProvider, useClient: useStudyClient } = createClientContext(studyClient);
