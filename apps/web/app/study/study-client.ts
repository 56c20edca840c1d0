import { createStudyClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

/** The client the study screens use (`@atelier/site-api` holds its types, schemas and texts). */
export const studyClient = createStudyClient(siteHttp);
