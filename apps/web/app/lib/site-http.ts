import { readCsrfTokenFromDocumentCookie } from "@atelier/auth";
import { createSiteHttp } from "@atelier/site-api";

/** The one HTTP instance of the site's own API (`@atelier/site-api`): every client of the screens goes through it. */
export const siteHttp = createSiteHttp({ readCsrfToken: readCsrfTokenFromDocumentCookie });
