/** One request the fake fetch received, read while the request was still readable. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials;
}

type CannedAnswer = { status?: number; json?: unknown; text?: string } | (() => never);

/**
 * A fetch that answers from a table keyed by `"METHOD /path"` (the path after the host), and records each request.
 * Unlisted requests answer 404 with a text body, as a wrong mount point would.
 */
export function createFakeFetch(answers: Record<string, CannedAnswer>) {
  const requests: RecordedRequest[] = [];
  const fakeFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text();
    const url = new URL(request.url);
    requests.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: text === "" ? undefined : JSON.parse(text),
      credentials: request.credentials,
    });
    const answer = answers[`${request.method} ${url.pathname}`];
    if (answer === undefined) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/html" } });
    if (typeof answer === "function") return answer();
    if (answer.text !== undefined) return new Response(answer.text, { status: answer.status ?? 200 });
    const status = answer.status ?? (answer.json as { status?: number }).status ?? 200;
    return Response.json(answer.json, { status });
  };
  return { fetch: fakeFetch as typeof fetch, requests };
}
