import { describe, expect, it } from "vitest";
import { parseSubtitleXml } from "./parse-subtitle-xml.ts";
import { SubtitleParseError, type SubtitleParseErrorCode } from "./subtitle-parse-error.ts";
import { readOwnSubtitleFixture } from "./test-support/shared-subtitle-fixtures.ts";

function expectParseError(action: () => unknown, code: SubtitleParseErrorCode) {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(SubtitleParseError);
    expect((error as SubtitleParseError).code).toBe(code);
    expect((error as SubtitleParseError).userMessage).toMatch(/\.$/);
    return;
  }
  throw new Error(`expected a SubtitleParseError with code ${code}`);
}

describe("given a minimal Netflix-style TTML file with ticks", () => {
  const track = parseSubtitleXml(readOwnSubtitleFixture("ttml-minimal.ttml"));

  it("should read the format and the language", () => {
    expect(track.format).toBe("ttml");
    expect(track.language).toBe("sv");
  });

  it("should convert ticks at 10 MHz to milliseconds", () => {
    expect(track.cues[0]).toMatchObject({ startMilliseconds: 7925, endMilliseconds: 9410 });
  });

  it("should keep spans in order, decode entities and turn <br/> into a new line", () => {
    expect(track.cues[0]?.text).toBe("Hej & välkommen\ntill Stockholm!");
  });
});

describe("given a DFXP file in the legacy 2006/10 namespace", () => {
  const track = parseSubtitleXml(readOwnSubtitleFixture("dfxp-legacy-namespace.xml"));

  it("should find its cues and call it dfxp", () => {
    expect(track.format).toBe("dfxp");
    expect(track.cues.map((cue) => cue.text)).toEqual(["Legacy namespace.", "Offset time."]);
  });

  it("should read frames at the declared frame rate and offset times with dur", () => {
    expect(track.cues[0]).toMatchObject({ startMilliseconds: 1640, endMilliseconds: 3240 });
    expect(track.cues[1]).toMatchObject({ startMilliseconds: 2000, endMilliseconds: 2500 });
  });
});

describe("given EBU-TT-D with prefixed elements and EBU-TT with SMPTE frames", () => {
  it("should read the same timing from both notations", () => {
    const distribution = parseSubtitleXml(readOwnSubtitleFixture("ebu-tt-d-prefixed.xml"));
    const production = parseSubtitleXml(readOwnSubtitleFixture("ebu-tt-smpte.xml"));
    expect(distribution.format).toBe("ebu-tt-d");
    expect(production.format).toBe("ebu-tt");
    expect(distribution.cues[0]).toEqual({ startMilliseconds: 1640, endMilliseconds: 3240, text: "Erste\nZeile" });
    expect(production.cues[0]).toMatchObject({ startMilliseconds: 1640, endMilliseconds: 3240 });
  });
});

describe("given IMSC text with times on timed parents", () => {
  const track = parseSubtitleXml(readOwnSubtitleFixture("imsc-timed-parents.ttml"));

  it("should add the body's and div's begin times and clip to the div's end", () => {
    expect(track.format).toBe("imsc");
    expect(track.cues.find((cue) => cue.text === "Clipped to the div.")).toMatchObject({ startMilliseconds: 16_000, endMilliseconds: 30_000 });
    expect(track.cues.find((cue) => cue.text === "Takes the div's times.")).toMatchObject({ startMilliseconds: 15_000, endMilliseconds: 30_000 });
  });

  it("should start each child of a seq container where the previous one ended", () => {
    expect(track.cues.find((cue) => cue.text === "First in sequence.")).toMatchObject({ startMilliseconds: 10_000, endMilliseconds: 11_001 });
    expect(track.cues.find((cue) => cue.text === "Second in sequence.")).toMatchObject({ startMilliseconds: 11_001, endMilliseconds: 13_001 });
  });
});

describe("given a tokenised OPUS file", () => {
  const track = parseSubtitleXml(readOwnSubtitleFixture("opus-raw.xml"));

  it("should make one cue per time milestone pair and detokenise the words", () => {
    expect(track.format).toBe("opus");
    expect(track.cues).toEqual([
      { startMilliseconds: 1000, endMilliseconds: 3000, text: "Framåt, Chauncey! Vi" },
      { startMilliseconds: 3500, endMilliseconds: 5000, text: "går. Nu." },
    ]);
  });

  it("should keep the sentences with times interpolated inside the cues", () => {
    expect(track.sentences?.map((sentence) => sentence.text)).toEqual(["Framåt, Chauncey! Vi går.", "Nu."]);
    expect(track.sentences?.[0]).toMatchObject({ startMilliseconds: 1000 });
    expect(track.sentences?.[1]?.startMilliseconds).toBeGreaterThan(3500);
    expect(track.sentences?.[1]?.endMilliseconds).toBe(5000);
  });
});

describe("given YouTube timedtext", () => {
  it("should decode double-escaped srv1 text, strip markup and drop the empty cue", () => {
    const track = parseSubtitleXml(readOwnSubtitleFixture("youtube-srv1.xml"));
    expect(track.format).toBe("youtube-timedtext");
    expect(track.cues).toEqual([
      { startMilliseconds: 500, endMilliseconds: 2500, text: "I'm here & there" },
      { startMilliseconds: 3000, endMilliseconds: 4500, text: "Quiet now" },
    ]);
    expect(track.droppedCues).toEqual([{ reason: "empty", elementIndex: 2 }]);
  });

  it("should read srv3 milliseconds and join the word segments", () => {
    const track = parseSubtitleXml(readOwnSubtitleFixture("youtube-srv3.xml"));
    expect(track.format).toBe("youtube-srv3");
    expect(track.cues[0]).toEqual({ startMilliseconds: 1000, endMilliseconds: 3000, text: "hello world" });
  });
});

describe("given text encodings", () => {
  it("should strip a UTF-8 byte order mark", () => {
    expect(parseSubtitleXml(readOwnSubtitleFixture("bom-utf8.ttml")).cues[0]?.text).toBe("BOM first");
  });

  it("should honour a windows-1252 declaration", () => {
    expect(parseSubtitleXml(readOwnSubtitleFixture("declared-windows-1252.ttml")).cues[0]?.text).toBe("Kör så här");
  });

  it("should accept a string as well as bytes", () => {
    expect(parseSubtitleXml(readOwnSubtitleFixture("ttml-minimal.ttml").toString("utf8")).cues).toHaveLength(2);
  });

  it("should refuse an encoding it cannot read", () => {
    const xml = '<?xml version="1.0" encoding="shift_jis"?><tt xmlns="http://www.w3.org/ns/ttml"/>';
    expectParseError(() => parseSubtitleXml(new TextEncoder().encode(xml)), "unsupported-encoding");
  });
});

describe("given files that are not usable subtitles", () => {
  it("should refuse image-only TTML with its own message", () => {
    expectParseError(() => parseSubtitleXml(readOwnSubtitleFixture("image-only.ttml")), "image-only");
  });

  it("should refuse XML that is not subtitles", () => {
    expectParseError(() => parseSubtitleXml(readOwnSubtitleFixture("not-subtitles.xml")), "not-subtitles");
  });

  it("should refuse malformed XML", () => {
    expectParseError(() => parseSubtitleXml(readOwnSubtitleFixture("malformed.xml")), "not-xml");
  });

  it("should refuse a binary file named .xml", () => {
    expectParseError(() => parseSubtitleXml(readOwnSubtitleFixture("binary-named.xml")), "binary");
  });

  it("should refuse a TTML file without timed text", () => {
    expectParseError(() => parseSubtitleXml('<tt xmlns="http://www.w3.org/ns/ttml"><body/></tt>'), "no-cues");
  });
});

describe("given hostile input", () => {
  it("should refuse entity declarations without expanding them (billion laughs)", () => {
    expectParseError(() => parseSubtitleXml(readOwnSubtitleFixture("hostile-billion-laughs.xml")), "entity-declaration");
  });

  it("should refuse external entities without touching the file system", () => {
    expectParseError(() => parseSubtitleXml(readOwnSubtitleFixture("hostile-external-entity.xml")), "entity-declaration");
  });

  // The time it takes is the subtitles bench's (`hostileDocuments`): a test asserts the refusal, not the speed.
  it("should stop 100,000 nested elements at the depth limit, before the unclosed end", () => {
    expectParseError(() => parseSubtitleXml(`<tt xmlns="http://www.w3.org/ns/ttml">${"<span>".repeat(100_000)}`), "too-deep");
  });

  it("should refuse a file above the size limit before parsing", () => {
    expectParseError(() => parseSubtitleXml(new Uint8Array(5 * 1024 * 1024 + 1).fill(0x20)), "too-large");
  });

  it("should stop at the cue limit", () => {
    const paragraphs = Array.from({ length: 30 }, (_, index) => `<p begin="${index}s" end="${index + 1}s">line</p>`).join("");
    expectParseError(() => parseSubtitleXml(`<tt xmlns="http://www.w3.org/ns/ttml"><body><div>${paragraphs}</div></body></tt>`, { maximumCues: 20 }), "too-many-cues");
  });

  it("should refuse a cue with more text than a screen can hold", () => {
    const xml = `<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">${"a".repeat(2_001)}</p></div></body></tt>`;
    expectParseError(() => parseSubtitleXml(xml), "text-too-long");
  });

  it("should keep markup-looking text as plain text, never HTML", () => {
    const xml = '<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">&lt;script&gt;alert(1)&lt;/script&gt; &lt;i&gt;hi&lt;/i&gt;</p></div></body></tt>';
    expect(parseSubtitleXml(xml).cues[0]?.text).toBe("<script>alert(1)</script> hi");
  });

  it("should drop cues with impossible times instead of failing", () => {
    const xml = '<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="5s" end="2s">backwards</p><p begin="1s" end="2s">fine</p></div></body></tt>';
    const track = parseSubtitleXml(xml);
    expect(track.cues.map((cue) => cue.text)).toEqual(["fine"]);
    expect(track.droppedCues).toEqual([{ reason: "invalid-time", elementIndex: 0 }]);
  });
});
