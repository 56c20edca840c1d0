import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { alignSubtitleTracks, type SubtitleAlignment } from "./align-subtitle-tracks.ts";
import type { SubtitleCue } from "./subtitle-types.ts";
import { createSyntheticPair } from "./test-support/synthetic-subtitle-pair.ts";

// The checksums below are of the whole result (pairs, report, links, sentences) as the aligner gave it before it was
// made faster for issue 16 (commit f709b50): a faster aligner must give the same bits, not merely similar cards.

function checksumOf(alignment: SubtitleAlignment): string {
  return createHash("sha256").update(JSON.stringify(alignment)).digest("hex");
}

describe("given the bench's synthetic pair of 2,000 cues", () => {
  const { english, swedish } = createSyntheticPair(2_000);

  it("should give the pinned result, bit for bit", () => {
    const alignment = alignSubtitleTracks(english, swedish);
    expect(alignment.report).toMatchObject({ offsetMilliseconds: -15_622, pairCount: 1_940, linkTypeCounts: { "1:1": 1_940, "1:0": 60 }, spliceDetected: false });
    expect(checksumOf(alignment)).toBe("dbffa58999c1c546e55fad912a1e9fd0b2273ba10653f03cab45c0d4df067352");
  });

  it("should give the pinned result, bit for bit, when the Swedish track's second half is 8 s later (a splice)", () => {
    const spliceAt = (swedish[1_000] as SubtitleCue).startMilliseconds - 50;
    const spliced = swedish.map((cue) =>
      cue.startMilliseconds < spliceAt ? cue : { ...cue, startMilliseconds: cue.startMilliseconds + 8_000, endMilliseconds: cue.endMilliseconds + 8_000 },
    );
    const alignment = alignSubtitleTracks(english, spliced);
    expect(alignment.report).toMatchObject({ offsetMilliseconds: -15_603, pairCount: 1_938, linkTypeCounts: { "1:1": 1_936, "1:0": 61, "2:1": 1, "1:3": 1 }, spliceDetected: true });
    expect(checksumOf(alignment)).toBe("793868774afaf9eaa53adbcfd3201283334656897c13834d676129f1fdf82247");
  });
});
