import type { SubtitleCue } from "./subtitle-types.ts";
import { removeDialogueDashesFromLine } from "./subtitle-text.ts";

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
/** `STARTS_NEW_SENTENCE` at a position (`lastIndex`) of a longer text, without slicing it off. */
const STARTS_NEW_SENTENCE_AT = /["'«“‘([¿¡]*[\p{Lu}\p{N}]/uy;
const SENTENCE_BOUNDARY = /[.!?…]+["'»”’)\]]*\s+/gu;
const DIALOGUE_DASH_LINE = /^[-‐‑–—]/;
const WHITE_SPACE = /\s/;
/** White space that `replace(/\s+/g, " ")` would change: two in a row, or one that is not a plain space. */
const RUN_OF_WHITE_SPACE_TO_COLLAPSE = /\s\s|[^\S ]/;
const FULL_STOP = 46;

function endsSentence(text: string): boolean {
  if (!SENTENCE_END.test(text)) return false;
  // Every abbreviation ends with a letter, so only a last word that ends with a stop can be one.
  if (text.charCodeAt(text.length - 1) !== FULL_STOP) return true;
  const lastWord = lastWordOf(text).toLowerCase().replace(/^["'«“‘(]+/, "");
  return !ABBREVIATIONS.has(lastWord.replace(/\.$/, ""));
}

/** What `/(\S+)$/` captures, or "": after the last space when no other white space follows it (the usual case). */
function lastWordOf(text: string): string {
  const afterLastSpace = text.slice(text.lastIndexOf(" ") + 1);
  if (!WHITE_SPACE.test(afterLastSpace)) return afterLastSpace;
  return /(\S+)$/.exec(text)?.[1] ?? "";
}

/**
 * Splits one line into sentence pieces at a stop, question or exclamation mark (or an ellipsis) followed by a word
 * that starts with a capital or a digit; "Mr." and "t.ex." do not end a sentence, "Vänta... nej" does not either.
 */
export function splitIntoSentencePieces(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  SENTENCE_BOUNDARY.lastIndex = 0;
  for (let match = SENTENCE_BOUNDARY.exec(line); match !== null; match = SENTENCE_BOUNDARY.exec(line)) {
    const end = match.index + match[0].length;
    const piece = line.slice(start, end).trim();
    STARTS_NEW_SENTENCE_AT.lastIndex = end;
    if (endsSentence(piece) && STARTS_NEW_SENTENCE_AT.test(line)) {
      pieces.push(piece);
      start = end;
    }
  }
  const rest = line.slice(start).trim();
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

interface SentenceUnderConstruction {
  /** The pieces so far, joined by spaces. */
  text: string;
  lastPiece: string;
  startMilliseconds: number;
  endMilliseconds: number;
  /** Each cue once, in order: a cue's pieces come one after another. */
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
    const text = (RUN_OF_WHITE_SPACE_TO_COLLAPSE.test(current.text) ? current.text.replace(/\s+/g, " ") : current.text).trim();
    if (text.length > 0) {
      sentences.push({ text, startMilliseconds: current.startMilliseconds, endMilliseconds: current.endMilliseconds, cueIndexes: current.cueIndexes });
    }
    current = undefined;
  };

  // A cue's pieces with their character ranges in the cue, for their share of the cue's time; reused from cue to cue.
  const pieceTexts: string[] = [];
  const pieceStartsLine: boolean[] = [];
  const pieceForcedStart: boolean[] = [];
  const pieceFrom: number[] = [];
  for (let cueIndex = 0; cueIndex < cues.length; cueIndex += 1) {
    const cue = cues[cueIndex] as SubtitleCue;
    let pieceCount = 0;
    let offset = 0;
    // The lines of `cue.text.split("\n")`, without the array.
    for (let lineStart = 0; lineStart <= cue.text.length; ) {
      let lineEnd = cue.text.indexOf("\n", lineStart);
      if (lineEnd === -1) lineEnd = cue.text.length;
      const line = cue.text.slice(lineStart, lineEnd).trim();
      lineStart = lineEnd + 1;
      if (line.length === 0) continue;
      const forcedStart = DIALOGUE_DASH_LINE.test(line);
      const linePieces = splitIntoSentencePieces(removeDialogueDashesFromLine(line));
      for (let pieceIndex = 0; pieceIndex < linePieces.length; pieceIndex += 1) {
        const text = linePieces[pieceIndex] as string;
        pieceTexts[pieceCount] = text;
        pieceStartsLine[pieceCount] = pieceIndex === 0;
        pieceForcedStart[pieceCount] = forcedStart && pieceIndex === 0;
        pieceFrom[pieceCount] = offset;
        pieceCount += 1;
        offset += text.length + 1;
      }
    }
    const totalCharacters = Math.max(1, offset - 1);
    const duration = cue.endMilliseconds - cue.startMilliseconds;
    for (let piece = 0; piece < pieceCount; piece += 1) {
      const text = pieceTexts[piece] as string;
      const from = pieceFrom[piece] as number;
      const startMilliseconds = cue.startMilliseconds + Math.round((duration * from) / totalCharacters);
      const endMilliseconds = cue.startMilliseconds + Math.round((duration * Math.min(from + text.length, totalCharacters)) / totalCharacters);
      const continues =
        current !== undefined &&
        !pieceForcedStart[piece] &&
        // Only a line's first piece may carry on the sentence before it; the others were split off at a sentence end.
        pieceStartsLine[piece] === true &&
        !(STARTS_NEW_SENTENCE.test(text) && endsSentence(current.lastPiece)) &&
        current.cueIndexes.length < MAXIMUM_CUES_PER_SENTENCE &&
        current.characters + text.length <= MAXIMUM_SENTENCE_CHARACTERS;
      if (!continues) {
        close();
        current = { text, lastPiece: text, startMilliseconds, endMilliseconds, cueIndexes: [cueIndex], characters: text.length + 1 };
        continue;
      }
      const sentence = current as SentenceUnderConstruction;
      sentence.text = `${sentence.text} ${text}`;
      sentence.lastPiece = text;
      sentence.endMilliseconds = Math.max(sentence.endMilliseconds, endMilliseconds);
      if (sentence.cueIndexes[sentence.cueIndexes.length - 1] !== cueIndex) sentence.cueIndexes.push(cueIndex);
      sentence.characters += text.length + 1;
    }
  }
  close();
  return sentences;
}
