import type { SubtitleCue } from "./subtitle-types.ts";
import { removeDialogueDashes } from "./subtitle-text.ts";

/** A sentence of a subtitle track, timed on its track's clock, with the cues it was read from. */
export interface TimedSubtitleSentence {
  text: string;
  startMilliseconds: number;
  endMilliseconds: number;
  /** Indexes of the cues (in the order given) that hold a piece of it. */
  cueIndexes: number[];
  /** The corpus id, when the file itself marks sentences (OPUS `<s id>`). */
  id?: string;
}

/** Words whose full stop does not end a sentence, in English and Swedish. */
const ABBREVIATIONS = new Set([
  "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "vs", "etc", "no", "mt", "lt", "col", "gen", "sgt", "capt",
  "t.ex", "bl.a", "dvs", "osv", "ca", "kl", "s.k", "m.m", "o.s.v", "p.g.a", "d.v.s", "nr", "jfr",
]);

/** A sentence that has not ended after this many cues or characters is closed anyway (songs, lists without stops). */
const MAXIMUM_CUES_PER_SENTENCE = 4;
const MAXIMUM_SENTENCE_CHARACTERS = 300;

const SENTENCE_END = /[.!?…]["'»”’)\]]*$/u;
const STARTS_NEW_SENTENCE = /^["'«“‘([¿¡]*[\p{Lu}\p{N}]/u;
const DIALOGUE_DASH_LINE = /^[-‐‑–—]/;

function endsSentence(text: string): boolean {
  if (!SENTENCE_END.test(text)) return false;
  const lastWord = /(\S+)$/.exec(text)?.[1]?.toLowerCase().replace(/^["'«“‘(]+/, "") ?? "";
  return !ABBREVIATIONS.has(lastWord.replace(/\.$/, ""));
}

/**
 * Splits one line into sentence pieces at a stop, question or exclamation mark (or an ellipsis) followed by a word
 * that starts with a capital or a digit; "Mr." and "t.ex." do not end a sentence, "Vänta... nej" does not either.
 */
export function splitIntoSentencePieces(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  const boundary = /[.!?…]+["'»”’)\]]*\s+/gu;
  for (let match = boundary.exec(line); match !== null; match = boundary.exec(line)) {
    const end = match.index + match[0].length;
    const piece = line.slice(start, end).trim();
    if (endsSentence(piece) && STARTS_NEW_SENTENCE.test(line.slice(end))) {
      pieces.push(piece);
      start = end;
    }
  }
  const rest = line.slice(start).trim();
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

interface SentenceUnderConstruction {
  parts: string[];
  startMilliseconds: number;
  endMilliseconds: number;
  cueIndexes: number[];
  characters: number;
}

/**
 * Reads a track's cues (sorted by start) as a stream of sentences: a sentence may continue into the next cue ("From
 * now on, he'll take care of you..." / "and you'll take care of him.") and one cue may hold several sentences, or
 * several speakers ("- Kommer du?" / "- Ja."). The dashes that mark speakers are left out of the text. A piece of a
 * cue is timed in proportion to its share of the cue's characters. Only the text decides where sentences end, so
 * moving or stretching a track's times never changes its sentences.
 *
 * @example
 * segmentCuesIntoSentences([{ startMilliseconds: 0, endMilliseconds: 2000, text: "Hi. Who is it?" }]);
 * // [{ text: "Hi.", startMilliseconds: 0, endMilliseconds: 286, … }, { text: "Who is it?", … }]
 */
export function segmentCuesIntoSentences(cues: readonly SubtitleCue[]): TimedSubtitleSentence[] {
  const sentences: TimedSubtitleSentence[] = [];
  let current: SentenceUnderConstruction | undefined;

  const close = () => {
    if (!current) return;
    const text = current.parts.join(" ").replace(/\s+/g, " ").trim();
    if (text.length > 0) {
      sentences.push({ text, startMilliseconds: current.startMilliseconds, endMilliseconds: current.endMilliseconds, cueIndexes: [...new Set(current.cueIndexes)] });
    }
    current = undefined;
  };

  cues.forEach((cue, cueIndex) => {
    const lines = cue.text.split("\n").map((line) => line.trim()).filter((line) => line.length > 0);
    // Each piece with its character range in the cue, for its share of the cue's time.
    const pieces: { text: string; forcedStart: boolean; firstOfLine: boolean; from: number; to: number }[] = [];
    let offset = 0;
    for (const line of lines) {
      const forcedStart = DIALOGUE_DASH_LINE.test(line);
      const cleaned = removeDialogueDashes(line);
      splitIntoSentencePieces(cleaned).forEach((text, pieceIndex) => {
        pieces.push({ text, forcedStart: forcedStart && pieceIndex === 0, firstOfLine: pieceIndex === 0, from: offset, to: offset + text.length });
        offset += text.length + 1;
      });
    }
    const totalCharacters = Math.max(1, offset - 1);
    const duration = cue.endMilliseconds - cue.startMilliseconds;
    for (const piece of pieces) {
      const startMilliseconds = cue.startMilliseconds + Math.round((duration * piece.from) / totalCharacters);
      const endMilliseconds = cue.startMilliseconds + Math.round((duration * Math.min(piece.to, totalCharacters)) / totalCharacters);
      const previous = current?.parts.at(-1) ?? "";
      const continues =
        current !== undefined &&
        !piece.forcedStart &&
        // Only a line's first piece may carry on the sentence before it; the others were split off at a sentence end.
        piece.firstOfLine &&
        !(endsSentence(previous) && STARTS_NEW_SENTENCE.test(piece.text)) &&
        new Set(current.cueIndexes).size < MAXIMUM_CUES_PER_SENTENCE &&
        current.characters + piece.text.length <= MAXIMUM_SENTENCE_CHARACTERS;
      if (!continues) {
        close();
        current = { parts: [], startMilliseconds, endMilliseconds, cueIndexes: [], characters: 0 };
      }
      const sentence = current as SentenceUnderConstruction;
      sentence.parts.push(piece.text);
      sentence.endMilliseconds = Math.max(sentence.endMilliseconds, endMilliseconds);
      sentence.cueIndexes.push(cueIndex);
      sentence.characters += piece.text.length + 1;
    }
  });
  close();
  return sentences;
}
