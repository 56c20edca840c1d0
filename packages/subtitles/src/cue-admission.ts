import { SubtitleParseError } from "./subtitle-parse-error.ts";
import type { DroppedSubtitleCue, SubtitleParseLimits } from "./subtitle-types.ts";

/** A cue as a parser read it, before it is kept or dropped; its times may be missing or unusable. */
export interface CueCandidate {
  text: string;
  startMilliseconds: number | undefined;
  endMilliseconds: number | undefined;
  /** Position of the cue element in document order, counting kept and dropped cues. */
  elementIndex: number;
}

/**
 * The rule every format keeps a cue by. A text longer than the limit refuses the whole file (no screen shows it: the
 * file is not subtitles). A cue without a usable time span (missing, not finite, negative, empty, or past the limit)
 * or without text is dropped and recorded in `droppedCues`, so counts reconcile with the source file. Answers
 * whether the cue is kept, its times then being numbers.
 *
 * @example
 * if (admitCue({ text, startMilliseconds, endMilliseconds, elementIndex }, limits, droppedCues)) cues.push(...);
 */
export function admitCue(
  candidate: CueCandidate,
  limits: Pick<SubtitleParseLimits, "maximumTextLength" | "maximumTimeMilliseconds">,
  droppedCues: DroppedSubtitleCue[],
): candidate is CueCandidate & { startMilliseconds: number; endMilliseconds: number } {
  const { text, startMilliseconds, endMilliseconds, elementIndex } = candidate;
  if (text.length > limits.maximumTextLength) {
    throw new SubtitleParseError("text-too-long", `cue ${elementIndex + 1} has ${text.length} characters`);
  }
  if (
    startMilliseconds === undefined ||
    endMilliseconds === undefined ||
    !Number.isFinite(startMilliseconds) ||
    !Number.isFinite(endMilliseconds) ||
    startMilliseconds < 0 ||
    endMilliseconds <= startMilliseconds ||
    endMilliseconds > limits.maximumTimeMilliseconds
  ) {
    droppedCues.push({ reason: "invalid-time", elementIndex });
    return false;
  }
  if (text.length === 0) {
    droppedCues.push({ reason: "empty", elementIndex });
    return false;
  }
  return true;
}
