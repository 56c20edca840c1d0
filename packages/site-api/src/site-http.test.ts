import { describe, expect, it, vi } from "vitest";
import { HTTPError } from "ky";
import { createSiteHttp, CSRF_HEADER_NAME, discardAnswerBody } from "./site-http.ts";
import { json, recordingFetch as recordingAnswersFetch } from "./test-support/recording-fetch.ts";

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

  it("should read a refusal's body from the network whether or not its caller does, and still give it to the caller", async () => {
    const { answers, fetchImplementation } = recordingAnswersFetch(() => json(404, { error: "This subtitle group does not exist." }));
    const refusal = await createSiteHttp({ fetch: fetchImplementation })
      .api.get("http://localhost/api/subtitle-groups/7/stats/")
      .then(() => undefined, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(HTTPError);
    expect(answers.map((answer) => answer.bodyUsed)).toEqual([true]);
    expect(await (refusal as HTTPError).response.json()).toEqual({ error: "This subtitle group does not exist." });
    expect((refusal as HTTPError).response.status).toBe(404);
  });
});

describe("given an answer whose body the caller does not need", () => {
  it("should read it to its end, and leave a body already read or none alone", async () => {
    const unread = new Response("{\"deleted\":true}", { status: 200 });
    await discardAnswerBody(unread);
    expect(unread.bodyUsed).toBe(true);
    const read = new Response("done");
    await read.text();
    await expect(discardAnswerBody(read)).resolves.toBeUndefined();
    await expect(discardAnswerBody(new Response(null, { status: 204 }))).resolves.toBeUndefined();
  });
});
