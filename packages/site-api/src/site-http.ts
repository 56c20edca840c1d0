import ky, { type KyInstance } from "ky";

/** The header that echoes the CSRF cookie on every unsafe call (decision 0009; Django's name). */
export const CSRF_HEADER_NAME = "X-CSRFToken";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

export interface SiteHttpOptions {
  /** The transport; tests and Storybook pass a stand-in. */
  fetch?: typeof fetch;
  /** The CSRF token the server set on the page, read at each unsafe call (in a browser: the `csrftoken` cookie). */
  readCsrfToken?: () => string | null | undefined;
  /** The time a call may take before it fails (ky's `timeout`), 30 s unless a call says otherwise. */
  timeoutMilliseconds?: number;
}

/** One HTTP connection to Atelier's own API, shared by every client of this package. */
export interface SiteHttp {
  /** The ky instance: same-origin credentials, no retries, the CSRF header on unsafe methods. */
  api: KyInstance;
  /** The CSRF header for a call that cannot go through `api` (the upload uses XMLHttpRequest for its progress). */
  csrfHeaders: () => Record<string, string>;
}

/**
 * The one ky instance the site's clients share, with the one hook that adds the CSRF header to unsafe calls.
 *
 * @example
 * const http = createSiteHttp({ readCsrfToken: readCsrfTokenFromDocumentCookie });
 * const study = createStudyClient(http);
 */
export function createSiteHttp({ fetch: fetchImplementation = (input, init) => fetch(input, init), readCsrfToken = () => undefined, timeoutMilliseconds = 30_000 }: SiteHttpOptions = {}): SiteHttp {
  const csrfHeaders = () => ({ [CSRF_HEADER_NAME]: readCsrfToken() ?? "" });
  const api = ky.create({
    credentials: "same-origin",
    fetch: fetchImplementation,
    retry: 0,
    timeout: timeoutMilliseconds,
    hooks: {
      beforeRequest: [
        (request) => {
          if (!safeMethods.has(request.method.toUpperCase()) && !request.headers.has(CSRF_HEADER_NAME)) {
            request.headers.set(CSRF_HEADER_NAME, readCsrfToken() ?? "");
          }
        },
      ],
    },
  });
  return { api, csrfHeaders };
}
