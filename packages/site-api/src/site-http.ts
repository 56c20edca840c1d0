import ky, { type HTTPError, type KyInstance } from "ky";

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
 * Reads an answer's body to its end and drops it. A browser reads an answer's body from the network only as the page
 * does: one left unread keeps its connection (one of the six a browser opens to a host) until it is collected, and a
 * page that never reads it never reaches network idle (Chromium; a 404 from the stats call held one so).
 *
 * @example
 * await discardAnswerBody(await api.delete(path));
 */
export async function discardAnswerBody(response: Response): Promise<void> {
  if (response.body === null || response.bodyUsed) return;
  await response.arrayBuffer().catch(() => undefined);
}

/**
 * The same refusal, its body read from the network: every error answer's body is read to its end here (see
 * `discardAnswerBody`), whether or not its caller reads it, which it still can from the copy.
 */
async function withBodyRead(error: HTTPError): Promise<HTTPError> {
  if (error.response.body === null || error.response.bodyUsed) return error;
  const unread = error.response.clone();
  await discardAnswerBody(error.response);
  error.response = unread;
  return error;
}

/**
 * The one ky instance the site's clients share: the CSRF header on unsafe calls, and every refusal's body read.
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
      beforeError: [withBodyRead],
    },
  });
  return { api, csrfHeaders };
}
