import { createSeededRandom } from "@atelier/bench";
import type { SubtitleCue } from "../subtitle-types.ts";

/**
 * A film-like English track and a Swedish one from another release: 25/23.976 fps, 15 s late, jittered, re-split.
 * The bench times it at every size and the pinned-output test checksums the alignment of its 2,000-cue pair, so a
 * change here must come with new checksums there.
 */
export function createSyntheticPair(cueCount: number): { english: SubtitleCue[]; swedish: SubtitleCue[] } {
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
