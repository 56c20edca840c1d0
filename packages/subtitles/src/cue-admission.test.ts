import { describe, expect, it } from "vitest";
import { admitCue } from "./cue-admission.ts";
import { parseSubtitleXml } from "./parse-subtitle-xml.ts";
import { SubtitleParseError } from "./subtitle-parse-error.ts";
import type { DroppedSubtitleCue } from "./subtitle-types.ts";

const limits = { maximumTextLength: 10, maximumTimeMilliseconds: 60_000 };

describe("given a cue as a parser read it", () => {
  it.each([
    ["no start", undefined, 2_000],
    ["no end", 1_000, undefined],
    ["a start that is not finite", Number.NaN, 2_000],
    ["an end that is not finite", 1_000, Number.POSITIVE_INFINITY],
    ["a negative start", -500, 2_000],
    ["an end before its start", 2_000, 1_000],
    ["an end at its start", 1_000, 1_000],
    ["an end past the limit", 1_000, 60_001],
  ])("should drop it as invalid-time when it has %s", (_case, startMilliseconds, endMilliseconds) => {
    const droppedCues: DroppedSubtitleCue[] = [];
    expect(admitCue({ text: "Hej", startMilliseconds, endMilliseconds, elementIndex: 3 }, limits, droppedCues)).toBe(false);
    expect(droppedCues).toEqual([{ reason: "invalid-time", elementIndex: 3 }]);
  });

  it("should drop it as empty when its times are fine but it has no text", () => {
    const droppedCues: DroppedSubtitleCue[] = [];
    expect(admitCue({ text: "", startMilliseconds: 0, endMilliseconds: 60_000, elementIndex: 0 }, limits, droppedCues)).toBe(false);
    expect(droppedCues).toEqual([{ reason: "empty", elementIndex: 0 }]);
  });

  it("should keep it, recording nothing, when it has text and a time span inside the limit", () => {
    const droppedCues: DroppedSubtitleCue[] = [];
    expect(admitCue({ text: "Hej", startMilliseconds: 0, endMilliseconds: 1, elementIndex: 0 }, limits, droppedCues)).toBe(true);
    expect(droppedCues).toEqual([]);
  });

  it("should refuse the whole file, naming the cue and its length, when its text is longer than the limit, whatever its times", () => {
    expect(() => admitCue({ text: "a".repeat(11), startMilliseconds: undefined, endMilliseconds: undefined, elementIndex: 4 }, limits, [])).toThrow(
      new SubtitleParseError("text-too-long", "cue 5 has 11 characters"),
    );
  });
});

// Each format reads its times its own way, then keeps cues by the one rule: the same three cues in each.
describe.each([
  [
    "TTML",
    '<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="-1s" end="2s">Tidig</p><p begin="1s" end="2s"> </p><p begin="3s" end="4s">Hej</p></div></body></tt>',
  ],
  ["YouTube timedtext", '<transcript><text start="-1" dur="3">Tidig</text><text start="1" dur="1"> </text><text start="3" dur="1">Hej</text></transcript>'],
  [
    "OPUS",
    '<document><s id="1"><time id="T1S" value="00:00:03,000"/><w id="1.1">Hej</w><time id="T1E" value="00:00:04,000"/><time id="T2S" value="00:00:05,000"/><time id="T2E" value="00:00:04,000"/></s></document>',
  ],
])("given a %s file with cues it cannot keep (a time before the film, an empty text, an end before the start) and a good one", (format, xml) => {
  it("should keep the good cue only and count the others as dropped", () => {
    const track = parseSubtitleXml(xml);
    expect(track.cues).toEqual([{ startMilliseconds: 3_000, endMilliseconds: 4_000, text: "Hej" }]);
    expect(track.droppedCues.length).toBe(format === "OPUS" ? 1 : 2);
  });
});
