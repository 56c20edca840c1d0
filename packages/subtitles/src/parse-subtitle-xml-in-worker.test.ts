import { afterAll, describe, expect, it } from "vitest";
import { alignSubtitleTracks } from "./align-subtitle-tracks.ts";
import { alignSubtitleTracksInWorker, closeSubtitleParseWorkers, limitRunningSubtitleJobs, parseSubtitleXmlInWorker } from "./parse-subtitle-xml-in-worker.ts";
import type { ParsedSubtitleTrack } from "./subtitle-types.ts";
import { SubtitleParseError } from "./subtitle-parse-error.ts";
import { readOwnSubtitleFixture } from "./test-support/shared-subtitle-fixtures.ts";

afterAll(async () => {
  await closeSubtitleParseWorkers();
});

async function expectRejection(promise: Promise<unknown>, code: string): Promise<SubtitleParseError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SubtitleParseError);
  expect((error as SubtitleParseError).code).toBe(code);
  return error as SubtitleParseError;
}

describe("given an upload parsed in a worker thread", () => {
  it("should return the same cues as the synchronous parser", async () => {
    const track = await parseSubtitleXmlInWorker(new Uint8Array(readOwnSubtitleFixture("ttml-minimal.ttml")), { timeoutMilliseconds: 10_000 });
    expect(track.cues[0]).toEqual({ startMilliseconds: 7925, endMilliseconds: 9410, text: "Hej & välkommen\ntill Stockholm!" });
  });

  it("should pass typed errors back with their user message", async () => {
    const error = await expectRejection(parseSubtitleXmlInWorker(new Uint8Array(readOwnSubtitleFixture("hostile-billion-laughs.xml")), { timeoutMilliseconds: 10_000 }), "entity-declaration");
    expect(error.userMessage).toMatch(/entities/);
  });

  it("should answer 100,000 nested elements within 2 s", async () => {
    const started = performance.now();
    await expectRejection(parseSubtitleXmlInWorker(new TextEncoder().encode(`<tt xmlns="http://www.w3.org/ns/ttml">${"<span>".repeat(100_000)}`)), "too-deep");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("should refuse a 50 MB file at once, without starting a worker", async () => {
    const started = performance.now();
    await expectRejection(parseSubtitleXmlInWorker(new Uint8Array(50 * 1024 * 1024)), "too-large");
    expect(performance.now() - started).toBeLessThan(200);
  });

  it("should stop a parse that runs past its timeout and say so", async () => {
    const paragraphs = Array.from({ length: 20_000 }, (_, index) => `<p begin="${index}s" end="${index + 1}s">line ${index}</p>`).join("");
    const xml = new TextEncoder().encode(`<tt xmlns="http://www.w3.org/ns/ttml"><body><div>${paragraphs}</div></body></tt>`);
    await expectRejection(parseSubtitleXmlInWorker(xml, { timeoutMilliseconds: 1 }), "timeout");
  });

  it("should not count a new worker's start-up against the parse's limit", async () => {
    await closeSubtitleParseWorkers();
    const started = performance.now();
    const track = await parseSubtitleXmlInWorker(new Uint8Array(readOwnSubtitleFixture("ttml-minimal.ttml")), { timeoutMilliseconds: 60 });
    // A cold worker takes longer to load than the 60 ms the two-cue parse is given (else this test proves nothing).
    expect(performance.now() - started).toBeGreaterThan(60);
    expect(track.cues[0]?.text).toBe("Hej & välkommen\ntill Stockholm!");
  });

  it("should keep working after a timeout", async () => {
    const track = await parseSubtitleXmlInWorker(new Uint8Array(readOwnSubtitleFixture("youtube-srv3.xml")), { timeoutMilliseconds: 10_000 });
    expect(track.format).toBe("youtube-srv3");
  });
});

function syntheticTrack(cueCount: number, language: "en" | "sv", offsetMilliseconds = 0): ParsedSubtitleTrack {
  const words = language === "en" ? ["Where", "is", "the", "train", "station", "tonight"] : ["Var", "är", "tågstationen", "i", "kväll", "nu"];
  return {
    format: "ttml",
    language,
    droppedCues: [],
    cues: Array.from({ length: cueCount }, (_, index) => ({
      startMilliseconds: offsetMilliseconds + index * 2_000,
      endMilliseconds: offsetMilliseconds + index * 2_000 + 1_500,
      text: `${words[index % words.length]} ${words[(index * 7) % words.length]} number ${index}.`,
    })),
  };
}

describe("given two tracks aligned in a worker thread", () => {
  it("should give the same pairs and report as the aligner on this thread", async () => {
    const english = syntheticTrack(300, "en");
    const swedish = syntheticTrack(300, "sv", 400);
    const inWorker = await alignSubtitleTracksInWorker(english, swedish, { timeoutMilliseconds: 20_000 });
    const here = alignSubtitleTracks(english, swedish);
    expect(inWorker.pairs).toEqual(here.pairs);
    expect(inWorker.report).toEqual(here.report);
  });

  it("should leave this thread's event loop free while it aligns a large pair", async () => {
    const english = syntheticTrack(12_000, "en");
    const swedish = syntheticTrack(12_000, "sv", 300);
    await alignSubtitleTracksInWorker(syntheticTrack(20, "en"), syntheticTrack(20, "sv"), { timeoutMilliseconds: 20_000 });
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks += 1;
      if (ticking) setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
    const alignment = alignSubtitleTracksInWorker(english, swedish, { timeoutMilliseconds: 60_000 });
    const { pairs } = await alignment;
    ticking = false;
    expect(pairs.length).toBeGreaterThan(1_000);
    // Aligned on this thread, not one timer could fire until the alignment was over.
    expect(ticks).toBeGreaterThan(10);
  });
});

describe("given more jobs than may run at once", () => {
  // The parse itself takes a few milliseconds once its worker is ready (where its limit starts); the alignment of the
  // largest accepted pair takes several times this limit even on the fastest machine seen (16,000 cues took 244 ms on
  // 2026-11-29's, less than the 250 ms limit this test had then), so the parse's wait always outlasts its own limit.
  const parseLimitMilliseconds = 100;

  /** Aligns a large pair and, once it has started, parses a small file: which finished first, and the alignment's time. */
  async function alignThenParse(): Promise<{ order: string[]; alignmentMilliseconds: number }> {
    const english = syntheticTrack(19_000, "en");
    const swedish = syntheticTrack(19_000, "sv", 300);
    const order: string[] = [];
    const started = performance.now();
    let alignmentMilliseconds = 0;
    const alignment = alignSubtitleTracksInWorker(english, swedish, { timeoutMilliseconds: 60_000 }).then(() => {
      alignmentMilliseconds = performance.now() - started;
      order.push("alignment");
    });
    const parse = parseSubtitleXmlInWorker(new Uint8Array(readOwnSubtitleFixture("ttml-minimal.ttml")), { timeoutMilliseconds: parseLimitMilliseconds }).then(() => order.push("parse"));
    await Promise.all([alignment, parse]);
    return { order, alignmentMilliseconds };
  }

  it("should start a job once the one running has finished, its time limit not running while it waits", async () => {
    const previous = limitRunningSubtitleJobs(1);
    try {
      const { order, alignmentMilliseconds } = await alignThenParse();
      expect(order).toEqual(["alignment", "parse"]);
      // The parse waited longer than its own limit, and was not stopped for it (else this test proves nothing).
      expect(alignmentMilliseconds).toBeGreaterThan(parseLimitMilliseconds);
    } finally {
      limitRunningSubtitleJobs(previous);
    }
  });

  it("should run them side by side when as many may run at once", async () => {
    const previous = limitRunningSubtitleJobs(2);
    try {
      // Two workers ready before the race: a worker started for the parse alone loads TypeScript, which on a loaded
      // machine took longer than the whole alignment (CI of 2026-11-30), and the test would time start-ups instead.
      const smallFile = new Uint8Array(readOwnSubtitleFixture("ttml-minimal.ttml"));
      await Promise.all([parseSubtitleXmlInWorker(smallFile, { timeoutMilliseconds: 10_000 }), parseSubtitleXmlInWorker(smallFile, { timeoutMilliseconds: 10_000 })]);
      expect((await alignThenParse()).order).toEqual(["parse", "alignment"]);
    } finally {
      limitRunningSubtitleJobs(previous);
    }
  });

  it("should refuse a limit below one job", () => {
    expect(() => limitRunningSubtitleJobs(0)).toThrow(RangeError);
  });
});
