import { createSiteHttp, type SiteHttp } from "../site-http.ts";

/** A JSON answer as the server sends it. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/**
 * A `fetch` that records each request, its parsed JSON body (undefined when empty) and the answer it gave, answering
 * with `answer()`: a test can tell from an answer's `bodyUsed` whether the client read it.
 */
export function recordingFetch(answer: () => Response) {
  const requests: Request[] = [];
  const bodies: unknown[] = [];
  const answers: Response[] = [];
  const fetchImplementation: typeof fetch = async (input) => {
    const request = input as Request;
    requests.push(request);
    const text = await request.text();
    bodies.push(text === "" ? undefined : JSON.parse(text));
    const given = answer();
    answers.push(given);
    return given;
  };
  return { requests, bodies, answers, fetchImplementation };
}

/** The site's HTTP instance over a test `fetch`, with the CSRF token a page would hold. */
export function siteHttpOver(fetchImplementation?: typeof fetch, csrfToken = "csrf-from-cookie"): SiteHttp {
  return createSiteHttp({ fetch: fetchImplementation, readCsrfToken: () => csrfToken });
}
