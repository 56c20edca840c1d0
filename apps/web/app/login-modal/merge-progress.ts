import { createProgressMergeClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

const progressMergeClient = createProgressMergeClient(siteHttp);

/** The spec's call after a sign-in in the login modal (§4.2); the server has merged already, so it is a formality. */
export function mergeAnonymousProgress(): Promise<void> {
  return progressMergeClient.mergeAnonymousProgress();
}
