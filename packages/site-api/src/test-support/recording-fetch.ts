import { createSiteHttp, type SiteHttp } from "../site-http.ts";

/** A JSON answer as the server sends it. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** A `fetch` that records each request and its parsed JSON body (undefined when empty), answering with `answer()`. */
export function recordingFetch(answer: () => Response) {
  const requests: Request[] = [];
  const bodies: unknown[] = [];
  const fetchImplementation: typeof fetch = async (input) => {
    const request = input as Request;
    requests.push(request);
    const text = await request.text();
    bodies.push(text === "" ? undefined : JSON.parse(text));
    return answer();
  };
  return { requests, bodies, fetchImplementation };
}

/** The site's HTTP instance over a test `fetch`, with the CSRF token a page would hold. */
export function siteHttpOver(fetchImplementation?: typeof fetch, csrfToken = "csrf-from-cookie"): SiteHttp {
  return createSiteHttp({ fetch: fetchImplementation, readCsrfToken: () => csrfToken });
}
