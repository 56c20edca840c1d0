import { describe, expect, it } from "vitest";
import { parseSubtitleXml } from "./parse-subtitle-xml.ts";
import { SubtitleParseError } from "./subtitle-parse-error.ts";
import type { ParsedSubtitleTrack } from "./subtitle-types.ts";
import {
  SHARED_SUBTITLE_FIXTURE_DIRECTORY,
  readSharedSubtitleFixture,
  sharedSubtitleFixturesAreMissing,
} from "./test-support/shared-subtitle-fixtures.ts";

function parseFixture(fileName: string): ParsedSubtitleTrack {
  return parseSubtitleXml(readSharedSubtitleFixture(fileName));
}

/** PROVENANCE.md counts cue elements; empty ones are read and reported in `droppedCues`, not kept. */
function countCueElements(track: ParsedSubtitleTrack): number {
  return track.cues.length + track.droppedCues.length;
}

describe.skipIf(sharedSubtitleFixturesAreMissing)(`given the real fixtures in ${SHARED_SUBTITLE_FIXTURE_DIRECTORY}`, () => {
  it.each([
    ["netflix-dfxp-oitnb-s01e01.fr.ttml", "dfxp", 813],
    ["netflix-dfxp-legacy-ttaf1-cloudy.en.ttml", "dfxp", 1109],
    ["youtube-ttml-kYB8IZa5AuE.en.ttml", "ttml", 169],
    ["youtube-srv1-timedtext.tr.xml", "youtube-timedtext", 156],
    ["ebu-tt-d-irt-pipeline1.de-scrambled.xml", "ebu-tt-d", 64],
    ["ebu-tt-smpte-frames-irt-pipeline1.de-scrambled.xml", "ebu-tt", 64],
    ["w3c-imsc1-DocumentExample120.en.ttml", "imsc", 11],
    ["w3c-imsc1-TimeExpressions001.ttml", "imsc", 11],
    ["w3c-imsc1-special-character-001.ttml", "ebu-tt-d", 1],
    ["androidx-ttml-frame_rate.xml", "ttml", 2],
    ["androidx-ttml-overlapping_times.xml", "ttml", 3],
    ["androidx-ttml-inherit_begin_from_div.xml", "imsc", 6],
    ["kitsumed-ttml-parsing-robust-test.bom.ttml", "ttml", 11],
    ["kitsumed-youtube-srv3.srv3", "youtube-srv3", 31],
    ["opensubs2018-209475.en.54828.xml", "opus", 1392],
    ["opensubs2018-209475.et.3123721.xml", "opus", 1496],
  ])("should read %s as %s with the %d cues PROVENANCE.md counts", (fileName, format, cueCount) => {
    const track = parseFixture(fileName);
    expect(track.format).toBe(format);
    expect(countCueElements(track)).toBe(cueCount);
  });

  it("should find the 1,775 and 1,832 OPUS sentences, all of them timed", () => {
    const english = parseFixture("opensubs2018-209475.en.54828.xml");
    const estonian = parseFixture("opensubs2018-209475.et.3123721.xml");
    expect(english.sentences).toHaveLength(1775);
    expect(estonian.sentences).toHaveLength(1832);
    expect(english.sentences?.[0]).toEqual({
      id: "1",
      text: "From now on, he'll take care of you... and you'll take care of him.",
      startMilliseconds: 87_720,
      endMilliseconds: 92_240,
    });
    expect(english.cues.at(-1)?.endMilliseconds).toBe(5_700_520);
  });

  it("should read the Estonian OPUS letters correctly", () => {
    expect(parseFixture("opensubs2018-209475.et.3123721.xml").cues[0]?.text).toBe("Tänasest peale, hoolitseb ta sinu eest...");
  });

  it("should read Netflix ticks: the first cue starts at 7.925 s and is the title card", () => {
    expect(parseFixture("netflix-dfxp-oitnb-s01e01.fr.ttml").cues[0]).toEqual({ startMilliseconds: 7925, endMilliseconds: 12_012, text: "SÉRIE NETFLIX ORIGINAL" });
  });

  it("should find cues in the legacy ttaf1 namespace, with line breaks", () => {
    expect(parseFixture("netflix-dfxp-legacy-ttaf1-cloudy.en.ttml").cues[0]).toEqual({
      startMilliseconds: 46_463,
      endMilliseconds: 51_343,
      text: "Have you ever felt like\nyou were a little bit different?",
    });
  });

  it("should give the EBU-TT frames file exactly the EBU-TT-D timings", () => {
    const distribution = parseFixture("ebu-tt-d-irt-pipeline1.de-scrambled.xml");
    const frames = parseFixture("ebu-tt-smpte-frames-irt-pipeline1.de-scrambled.xml");
    expect(frames.cues.map(({ startMilliseconds, endMilliseconds }) => [startMilliseconds, endMilliseconds])).toEqual(
      distribution.cues.map(({ startMilliseconds, endMilliseconds }) => [startMilliseconds, endMilliseconds]),
    );
    expect(frames.cues[1]).toMatchObject({ startMilliseconds: 1640, endMilliseconds: 3240 });
  });

  it("should keep the simultaneous speakers of DocumentExample120 as separate cues", () => {
    const track = parseFixture("w3c-imsc1-DocumentExample120.en.ttml");
    expect(track.cues[0]).toMatchObject({ startMilliseconds: 760, endMilliseconds: 3450 });
    const simultaneous = track.cues.filter((cue) => cue.startMilliseconds === 28_000);
    expect(simultaneous.map((cue) => cue.text)).toEqual(["But how is it proved?", "Thus: what we call"]);
  });

  it("should give each TimeExpressions001 cue the duration written in its text", () => {
    const track = parseFixture("w3c-imsc1-TimeExpressions001.ttml");
    for (const cue of track.cues) {
      const writtenSeconds = Number(/= ([\d.]+)s$/.exec(cue.text)?.[1]);
      expect((cue.endMilliseconds - cue.startMilliseconds) / 1000).toBeCloseTo(writtenSeconds, 2);
    }
  });

  it("should keep å ä ö Å Ä Ö and the line break inside a span", () => {
    const text = parseFixture("w3c-imsc1-special-character-001.ttml").cues[0]?.text ?? "";
    expect(text).toContain("å");
    expect(text).toContain("Ä Å");
    expect(text).toContain("Ö");
    expect(text.split("\n")).toHaveLength(2);
  });

  it("should read the androidx frame-rate and tick examples", () => {
    expect(parseFixture("androidx-ttml-frame_rate.xml").cues.map(({ startMilliseconds, endMilliseconds }) => [startMilliseconds, endMilliseconds])).toEqual([
      [1000, 1010],
      [1_001_000, 2_002_000],
    ]);
  });

  it("should keep overlapping and nested cues", () => {
    expect(parseFixture("androidx-ttml-overlapping_times.xml").cues.map(({ startMilliseconds, endMilliseconds }) => [startMilliseconds, endMilliseconds])).toEqual([
      [10_000, 25_000],
      [15_000, 20_000],
      [16_000, 28_000],
    ]);
  });

  it("should inherit and add up times of timed divs", () => {
    expect(parseFixture("androidx-ttml-inherit_begin_from_div.xml").cues).toEqual([
      { startMilliseconds: 69_583, endMilliseconds: 71_125, text: "Lara." },
      { startMilliseconds: 72_000, endMilliseconds: 74_500, text: "Stil." },
      { startMilliseconds: 122_000, endMilliseconds: 125_000, text: "offset" },
      { startMilliseconds: 180_000, endMilliseconds: 184_000, text: "dur" },
      { startMilliseconds: 242_000, endMilliseconds: 245_000, text: "nested" },
      { startMilliseconds: 300_000, endMilliseconds: 302_000, text: "bare" },
    ]);
  });

  it("should read the BOM file's time notations and report its empty cue", () => {
    const track = parseFixture("kitsumed-ttml-parsing-robust-test.bom.ttml");
    expect(track.droppedCues).toEqual([{ reason: "empty", elementIndex: 8 }]);
    const byText = (text: string) => track.cues.find((cue) => cue.text === text);
    expect(byText("Milliseconds & minutes")).toMatchObject({ startMilliseconds: 1500, endMilliseconds: 31_500 });
    expect(byText("Hours & seconds")).toMatchObject({ startMilliseconds: 36_000, endMilliseconds: 66_000 });
    expect(byText("Tick‐rate 1 ms ticks")).toMatchObject({ startMilliseconds: 24_000, endMilliseconds: 72_000 });
    // SMPTE time base at 24 × 1001/1000 fps: (10 s × 24 + 12.05 frames) / 24.024 fps.
    expect(byText("SMPTE + subframes")?.startMilliseconds).toBe(Math.round(((10 * 24 + 12.05) / 24.024) * 1000));
    expect(byText("Bold and italic nesting")).toBeDefined();
    expect(byText("First line\nSecond line")).toMatchObject({ startMilliseconds: 35_000, endMilliseconds: 37_000 });
  });

  it("should decode the srv1 file's double-escaped apostrophes", () => {
    const texts = parseFixture("youtube-srv1-timedtext.tr.xml").cues.map((cue) => cue.text).join("\n");
    expect(texts).not.toContain("&#39;");
    expect(texts).toContain("'");
  });

  it("should read srv3 milliseconds", () => {
    expect(parseFixture("kitsumed-youtube-srv3.srv3").cues[0]).toEqual({ startMilliseconds: 31_167, endMilliseconds: 38_471, text: "Banana sparkle jump, elephant swimming" });
  });

  it("should decode the YouTube TTML apostrophes", () => {
    expect(parseFixture("youtube-ttml-kYB8IZa5AuE.en.ttml").cues[7]?.text).toBe("to matrices for this video I'm just\ngoing to focus on what these");
  });

  it("should refuse the malformed OPUS alignment file as not XML", () => {
    expect(() => parseFixture("opensubs2018-209475.en-et.align.xml")).toThrow(SubtitleParseError);
  });

  it("should give the same track when the 1,109-cue Netflix file is parsed again", () => {
    // Its parse time is the subtitles bench's (`fixtures`), not a test's.
    const bytes = readSharedSubtitleFixture("netflix-dfxp-legacy-ttaf1-cloudy.en.ttml");
    const first = parseSubtitleXml(bytes);
    expect(first.cues).toHaveLength(1109);
    expect(parseSubtitleXml(bytes)).toEqual(first);
  });
});
