import { describe, expect, it, vi } from "vitest";
import { createSiteHttp, CSRF_HEADER_NAME } from "./site-http.ts";

function recordingFetch() {
  const requests: Request[] = [];
  const fetchImplementation = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } });
  });
  return { requests, fetch: fetchImplementation as unknown as typeof fetch };
}

describe("given the site's one HTTP instance", () => {
  it("should echo the CSRF token read at the time of each unsafe call, and send none on safe ones", async () => {
    const { requests, fetch } = recordingFetch();
    let token = "first";
    const http = createSiteHttp({ fetch, readCsrfToken: () => token });
    await http.api.get("http://localhost/api/subtitle-groups/");
    await http.api.post("http://localhost/api/subtitle-pairs/p1/rate/", { json: { is_correct: true } });
    token = "rotated after a sign-in";
    await http.api.delete("http://localhost/api/account/");
    expect(requests.map((request) => `${request.method} ${request.headers.get(CSRF_HEADER_NAME)}`)).toEqual(["GET null", "POST first", "DELETE rotated after a sign-in"]);
  });

  it("should send an empty header when the page has no token, so the server answers its CSRF refusal", async () => {
    const { requests, fetch } = recordingFetch();
    await createSiteHttp({ fetch }).api.patch("http://localhost/api/subtitle-pairs/p1/", { json: {} });
    expect(requests[0]?.headers.get(CSRF_HEADER_NAME)).toBe("");
  });

  it("should give the same header to calls that cannot go through ky", () => {
    expect(createSiteHttp({ readCsrfToken: () => "abc" }).csrfHeaders()).toEqual({ [CSRF_HEADER_NAME]: "abc" });
  });

  it("should send credentials for the same origin only and not retry a failed call", async () => {
    let calls = 0;
    const failing = (async () => {
      calls += 1;
      return new Response("", { status: 503 });
    }) as unknown as typeof fetch;
    await expect(createSiteHttp({ fetch: failing }).api.get("http://localhost/site-config")).rejects.toThrow();
    expect(calls).toBe(1);
  });
});
