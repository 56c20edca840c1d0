import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { alignSubtitleTracks, type SubtitleAlignment } from "./align-subtitle-tracks.ts";
import type { SubtitleCue } from "./subtitle-types.ts";

// The checksums below are of the whole result (pairs, report, links, sentences) as the aligner gave it before it was
// made faster for issue 16 (commit f709b50): a faster aligner must give the same bits, not merely similar cards.

/** The bench's seeded random (mulberry32), written out so that the pinned input never moves with the bench. */
function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The bench's synthetic pair: a film-like English track and a Swedish one at 25/23.976 fps, 15 s late, jittered, re-split. */
function createSyntheticPair(cueCount: number): { english: SubtitleCue[]; swedish: SubtitleCue[] } {
  const random = createSeededRandom(cueCount);
  const english: SubtitleCue[] = [];
  const swedish: SubtitleCue[] = [];
  let time = 60_000;
  for (let index = 0; index < cueCount; index += 1) {
    const duration = 900 + random() * 4_000;
    english.push({ startMilliseconds: Math.round(time), endMilliseconds: Math.round(time + duration), text: `Line ${index}.` });
    const toSwedishClock = (milliseconds: number) => Math.round(((milliseconds + (random() - 0.5) * 300) * 23.976) / 25 + 15_000);
    const roll = random();
    if (roll < 0.03) {
      // No Swedish counterpart.
    } else if (roll < 0.08) {
      const middle = time + duration / 2;
      swedish.push({ startMilliseconds: toSwedishClock(time), endMilliseconds: toSwedishClock(middle - 40), text: `Rad ${index}a,` });
      swedish.push({ startMilliseconds: toSwedishClock(middle + 40), endMilliseconds: toSwedishClock(time + duration), text: `rad ${index}b.` });
    } else {
      swedish.push({ startMilliseconds: toSwedishClock(time), endMilliseconds: toSwedishClock(time + duration), text: `Rad ${index}.` });
    }
    time += duration + 100 + random() * random() * 6_000;
  }
  swedish.sort((left, right) => left.startMilliseconds - right.startMilliseconds);
  return { english, swedish };
}

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
