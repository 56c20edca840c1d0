import { describe, expect, it } from "vitest";
import { createStudyClient, pairsSearchParameters, previewSearchParameters, STATS_ERROR_MESSAGE, STUDY_ERROR_MESSAGES, UPLOAD_FALLBACK_ERROR_MESSAGE, validateSubtitleFiles, type UploadRequest } from "./study.ts";
import { json, recordingFetch, siteHttpOver } from "./test-support/recording-fetch.ts";

const group = { id: "g1", name: "Wallander", created_at: "2025-01-01T00:00:00Z", is_public: true, owner_id: "u1", is_owner: true, pair_count: 3 };

describe("given the study client", () => {
  it("should load the groups from GET /api/subtitle-groups/", async () => {
    const { requests, fetchImplementation } = recordingFetch(() => json(200, { groups: [group] }));
    const result = await createStudyClient(siteHttpOver(fetchImplementation)).loadGroups();
    expect(result).toEqual({ status: "ok", data: { groups: [group] } });
    expect(new URL(requests[0]!.url).pathname).toBe("/api/subtitle-groups/");
    expect(requests[0]!.method).toBe("GET");
  });

  it("should answer 'Failed to load saved groups' when the list fails", async () => {
    const { fetchImplementation } = recordingFetch(() => json(500, { error: "Database down" }));
    expect(await createStudyClient(siteHttpOver(fetchImplementation)).loadGroups()).toEqual({ status: "error", message: "Failed to load saved groups", httpStatus: 500 });
  });

  it("should carry the server's sentence beside the spec's text when it refuses for a while (429), and only then", async () => {
    const sentence = "At most 10 sessions of more than 1,000 cards can start in a minute. Please wait 42 seconds, or choose fewer cards.";
    const limited = recordingFetch(() => json(429, { error: sentence }));
    expect(await createStudyClient(siteHttpOver(limited.fetchImplementation)).loadPairs("g1", { mode: "test", range: "all" })).toEqual({
      status: "error",
      message: STUDY_ERROR_MESSAGES.loadPairs,
      httpStatus: 429,
      detail: sentence,
    });
    expect(limited.requests).toHaveLength(1);
    const withoutSentence = recordingFetch(() => new Response("Too Many Requests", { status: 429 }));
    expect(await createStudyClient(siteHttpOver(withoutSentence.fetchImplementation)).loadPairs("g1", { mode: "test", range: "all" })).toEqual({ status: "error", message: STUDY_ERROR_MESSAGES.loadPairs, httpStatus: 429 });
    const notFound = recordingFetch(() => json(404, { error: "Group not found." }));
    expect(await createStudyClient(siteHttpOver(notFound.fetchImplementation)).loadPairs("g1", { mode: "test", range: "all" })).toEqual({ status: "error", message: STUDY_ERROR_MESSAGES.loadPairs, httpStatus: 404 });
  });

  it("should answer 'Failed to load saved groups' when the network fails", async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect(await createStudyClient(siteHttpOver(failing)).loadGroups()).toEqual({ status: "error", message: STUDY_ERROR_MESSAGES.loadGroups });
  });

  it("should toggle visibility with a POST carrying the CSRF header", async () => {
    const { requests, fetchImplementation } = recordingFetch(() => json(200, { group: { ...group, is_public: false } }));
    const result = await createStudyClient(siteHttpOver(fetchImplementation)).toggleGroupVisibility("g1");
    expect(result.status).toBe("ok");
    expect(new URL(requests[0]!.url).pathname).toBe("/api/subtitle-groups/g1/toggle-public/");
    expect(requests[0]!.method).toBe("POST");
    expect(requests[0]!.headers.get("X-CSRFToken")).toBe("csrf-from-cookie");
  });

  it("should map each failing group action to the spec's sentence", async () => {
    const { fetchImplementation } = recordingFetch(() => json(403, { error: "Not yours" }));
    const client = createStudyClient(siteHttpOver(fetchImplementation));
    expect(await client.toggleGroupVisibility("g1")).toMatchObject({ status: "error", message: "Failed to change visibility status" });
    expect(await client.deleteGroup("g1")).toMatchObject({ status: "error", message: "Failed to delete group" });
    expect(await client.renameGroup("g1", "New")).toMatchObject({ status: "error", message: "Failed to rename group" });
    expect(await client.loadPairs("g1", { mode: "study", range: "all" })).toMatchObject({ status: "error", message: "Failed to load flashcard pairs" });
    expect(await client.deletePair("p1")).toMatchObject({ status: "error", message: "Failed to delete flashcard pair" });
  });

  it("should rename with a JSON body and delete with DELETE and the CSRF header", async () => {
    const { requests, bodies, fetchImplementation } = recordingFetch(() => json(200, { group: { ...group, name: "Bron" } }));
    const client = createStudyClient(siteHttpOver(fetchImplementation));
    await client.renameGroup("g1", "Bron");
    expect(new URL(requests[0]!.url).pathname).toBe("/api/subtitle-groups/g1/rename/");
    expect(bodies[0]).toEqual({ name: "Bron" });
    const deleting = recordingFetch(() => new Response(null, { status: 204 }));
    expect(await createStudyClient(siteHttpOver(deleting.fetchImplementation)).deleteGroup("g1")).toEqual({ status: "ok", data: undefined });
    expect(deleting.requests[0]!.method).toBe("DELETE");
    expect(deleting.requests[0]!.headers.get("X-CSRFToken")).toBe("csrf-from-cookie");
  });

  it("should leave out range and cardCount when they are the string 'undefined'", async () => {
    const { requests, fetchImplementation } = recordingFetch(() => json(200, { pairs: [] }));
    await createStudyClient(siteHttpOver(fetchImplementation)).loadPairs("g1", { mode: "test", range: "undefined", cardCount: "undefined", startIndex: 2, endIndex: 9 });
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe("/api/subtitle-groups/g1/pairs/");
    expect([...url.searchParams.keys()]).toEqual(["mode", "startIndex", "endIndex"]);
    expect(pairsSearchParameters({ mode: "study", range: "new", cardCount: 5 }).toString()).toBe("mode=study&range=new&cardCount=5");
  });

  it("should load the stats with the preview's first page and say which page it is", async () => {
    const pair = { id: "p1", english: "Hello", swedish: "Hej", current_box: 1, confidence: 0.4, number: 1 };
    const stats = {
      id: "g1", name: "Bron", is_public: true, is_owner: true, can_export: true, total: 12, not_started: 12, in_progress: 0, memorized: 0,
      box_distribution: { box1: 0, box2: 0, box3: 0, box4: 0 }, total_reviews: 0, accuracy: 0, reviewing: 0, learned: 0, dueToday: 0,
      anonymous_limit_reached: false, hidden_pairs: [], due_forecast: [0, 0, 0, 0, 0, 0, 0], pairs: [pair], pairs_page: { page: 1, page_size: 10, total: 12 }, doubtful_count: 1,
    };
    const { requests, fetchImplementation } = recordingFetch(() => json(200, stats));
    expect(await createStudyClient(siteHttpOver(fetchImplementation)).loadStats("g1")).toEqual({ status: "ok", data: stats });
    expect(new URL(requests[0]!.url).pathname).toBe("/api/subtitle-groups/g1/stats/");
    const { pairs_page: _page, ...withoutPage } = stats;
    const older = recordingFetch(() => json(200, withoutPage));
    expect(await createStudyClient(siteHttpOver(older.fetchImplementation)).loadStats("g1")).toEqual({ status: "error", message: STATS_ERROR_MESSAGE, httpStatus: 200 });
  });

  it("should load a preview page with its size and the doubtful filter only when asked", async () => {
    const page = { pairs: [{ id: "p9", english: "Bye", swedish: "Hej då", current_box: 2, confidence: 0.3, number: 9 }], page: 2, page_size: 5, total: 6 };
    const { requests, fetchImplementation } = recordingFetch(() => json(200, page));
    const client = createStudyClient(siteHttpOver(fetchImplementation));
    expect(await client.loadPreviewPage("g 1", { page: 2, pageSize: 5, onlyDoubtful: true })).toEqual({ status: "ok", data: page });
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe("/api/subtitle-groups/g%201/preview/");
    expect(url.search).toBe("?page=2&page_size=5&only_doubtful=1");
    expect(previewSearchParameters({ page: 1, pageSize: 10, onlyDoubtful: false }).toString()).toBe("page=1&page_size=10");
    const failing = recordingFetch(() => json(500, { error: "Down" }));
    expect(await createStudyClient(siteHttpOver(failing.fetchImplementation)).loadPreviewPage("g1", { page: 1, pageSize: 10, onlyDoubtful: false })).toMatchObject({ status: "error", message: "Failed to load flashcard pairs" });
  });

  it("should count the cards a range and window offer with the pairs call's query", async () => {
    const { requests, fetchImplementation } = recordingFetch(() => json(200, { available: 7 }));
    expect(await createStudyClient(siteHttpOver(fetchImplementation)).countAvailableCards("g1", { range: "memorized", startIndex: 3, endIndex: 40 })).toEqual({ status: "ok", data: { available: 7 } });
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe("/api/subtitle-groups/g1/available-cards/");
    expect(url.search).toBe("?range=memorized&startIndex=3&endIndex=40");
  });

  it("should rate with is_correct and report a 403 as such", async () => {
    const { requests, bodies, fetchImplementation } = recordingFetch(() => json(200, { pair: { id: "p1", current_box: 2 }, memorized: 1, anonymous_limit_reached: false }));
    const result = await createStudyClient(siteHttpOver(fetchImplementation)).ratePair("p1", true);
    expect(result).toEqual({ status: "ok", data: { pair: { id: "p1", current_box: 2 }, memorized: 1, anonymous_limit_reached: false } });
    expect(new URL(requests[0]!.url).pathname).toBe("/api/subtitle-pairs/p1/rate/");
    expect(bodies[0]).toEqual({ is_correct: true });
    expect(requests[0]!.headers.get("X-CSRFToken")).toBe("csrf-from-cookie");
    const refused = recordingFetch(() => json(403, { error: "Sign in to go on" }));
    expect(await createStudyClient(siteHttpOver(refused.fetchImplementation)).ratePair("p1", true)).toMatchObject({ status: "error", httpStatus: 403 });
  });

  it("should mark cards as studied and reset the stats with POSTs", async () => {
    const { requests, bodies, fetchImplementation } = recordingFetch(() => json(200, { marked: 2, reset: true }));
    const client = createStudyClient(siteHttpOver(fetchImplementation));
    await client.markStudied("g1", ["p1", "p2"]);
    await client.resetStats("g1");
    expect(new URL(requests[0]!.url).pathname).toBe("/api/subtitle-groups/g1/mark-studied/");
    expect(bodies[0]).toEqual({ pairIds: ["p1", "p2"] });
    expect(new URL(requests[1]!.url).pathname).toBe("/api/subtitle-groups/g1/reset-stats/");
    expect(requests[1]!.method).toBe("POST");
  });
});

class FakeUploadRequest {
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = "";
  withCredentials = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(private readonly answer: { status: number; body: unknown }) {}
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 } as ProgressEvent);
    this.status = this.answer.status;
    this.responseText = JSON.stringify(this.answer.body);
    this.onload?.();
  }
}

describe("given an upload", () => {
  const swedish = new File(["<xml/>"], "sv.xml", { type: "text/xml" });
  const english = new File(["<xml/>"], "en.xml", { type: "text/xml" });

  it("should send both files and is_public through XMLHttpRequest, reporting the bytes sent", async () => {
    const report = { offsetMilliseconds: 0, frameRateRatio: 1, englishCoverage: 0.9, swedishCoverage: 0.8, meanOverlap: 0.7, pairCount: 3 };
    const request = new FakeUploadRequest({ status: 201, body: { group, report, pair_count: 3 } });
    const progress: number[] = [];
    const result = await createStudyClient(siteHttpOver(), { createUploadRequest: () => request as unknown as UploadRequest }).uploadSubtitles({ swedish, english, isPublic: false, name: " Bron " }, (fraction) =>
      progress.push(fraction),
    );
    expect(result).toEqual({ status: "ok", data: { group, report, pair_count: 3 } });
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/api/upload-subtitles/");
    expect(request.headers["X-CSRFToken"]).toBe("csrf-from-cookie");
    const body = request.body as FormData;
    expect(body.get("is_public")).toBe("false");
    expect(body.get("name")).toBe("Bron");
    expect(body.get("swedish")).toBeInstanceOf(File);
    expect(progress).toEqual([0.5]);
  });

  it("should show the server's error text, or a fallback", async () => {
    const refused = new FakeUploadRequest({ status: 400, body: { error: "The Swedish file has no subtitles." } });
    expect(await createStudyClient(siteHttpOver(), { createUploadRequest: () => refused as unknown as UploadRequest }).uploadSubtitles({ swedish, english, isPublic: true })).toEqual({
      status: "error",
      message: "The Swedish file has no subtitles.",
      httpStatus: 400,
    });
    const broken = new FakeUploadRequest({ status: 500, body: "oops" });
    expect(await createStudyClient(siteHttpOver(), { createUploadRequest: () => broken as unknown as UploadRequest }).uploadSubtitles({ swedish, english, isPublic: true })).toMatchObject({
      message: UPLOAD_FALLBACK_ERROR_MESSAGE,
    });
  });

  it("should ask for both files and for XML files only", () => {
    expect(validateSubtitleFiles({ swedish, english: null })).toBe("Please upload both files");
    expect(validateSubtitleFiles({ swedish, english: new File(["x"], "en.srt") })).toBe("Please upload XML files only");
    expect(validateSubtitleFiles({ swedish, english })).toBeUndefined();
  });
});

describe("given answers the study client needs nothing of", () => {
  it("should read each to its end, so that the browser frees its connection", async () => {
    const accepted = recordingFetch(() => json(200, { deleted: true }));
    const accepting = createStudyClient(siteHttpOver(accepted.fetchImplementation));
    await accepting.deleteGroup("g1");
    await accepting.deletePair("p1");
    await accepting.resetStats("g1");
    const refused = recordingFetch(() => json(404, { error: "This subtitle group does not exist." }));
    const refusing = createStudyClient(siteHttpOver(refused.fetchImplementation));
    expect(await refusing.loadStats("7")).toEqual({ status: "error", message: STATS_ERROR_MESSAGE, httpStatus: 404 });
    await refusing.countAvailableCards("7", { range: "all" });
    expect([...accepted.answers, ...refused.answers].map((answer) => answer.bodyUsed)).toEqual([true, true, true, true, true]);
  });
});
