import type { TimedSpan } from "./timed-span.ts";

/** A timed segment that may carry its text (cues and sentences do). */
export type TimedSegment = TimedSpan & { text?: string };

/**
 * How the banded alignment chooses between competing links: by time overlap alone, or by time overlap with the
 * length ratio and cheap lexical evidence (numbers, names and cognates, closing question and exclamation marks).
 */
export type LinkEvidence = "time" | "time-length-and-lexical";

const CLOSING_MARK_NONE = 0;
const CLOSING_MARK_QUESTION = 1;
const CLOSING_MARK_EXCLAMATION = 2;

/** What the link score reads from each side's texts, computed once per track so that a step costs a few array reads. */
export interface TextFeatures {
  /** Prefix sums: `lengthPrefix[i]` is the number of characters of segments 0…i−1. */
  lengthPrefix: Float64Array;
  /** Prefix sums of the numbers' count and of their hashes (an order-free fingerprint of a group's numbers). */
  numberCountPrefix: Int32Array;
  numberHashPrefix: Int32Array;
  /** Closing mark of each segment: none or a stop, a question mark, an exclamation mark. */
  closingMarks: Uint8Array;
  /** Each segment's cognate keys (unique) in `cognateKeys[cognateOffsets[i] … cognateOffsets[i+1]]`. */
  cognateOffsets: Int32Array;
  cognateKeys: Int32Array;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const LETTER = /\p{L}/u;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isLetter(code: number, character: string): boolean {
  if (code < 128) return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return LETTER.test(character);
}

function isUpperCase(code: number, character: string): boolean {
  if (code < 128) return code >= 65 && code <= 90;
  return character !== character.toLowerCase();
}

/** Quotes and brackets that may follow a sentence's closing mark. */
function isClosingQuote(character: string): boolean {
  return character === '"' || character === "'" || character === "»" || character === "”" || character === "’" || character === ")" || character === "]";
}

function closingMarkOf(text: string): number {
  let index = text.length - 1;
  while (index >= 0 && (text[index] === " " || text[index] === "\n" || isClosingQuote(text[index] as string))) index -= 1;
  const mark = text[index];
  return mark === "?" ? CLOSING_MARK_QUESTION : mark === "!" ? CLOSING_MARK_EXCLAMATION : CLOSING_MARK_NONE;
}

/**
 * Reads the features of a track's segments in one pass over each text (no regular expressions: 20,000 sentences a
 * side must cost a few milliseconds); `undefined` when a segment has no text to read.
 *
 * Numbers ("12", "9.30" and "9,30" alike) are hashed into an order-free sum. Cognate keys are the words that
 * translations keep: any word of four letters or more by its first four, lower-cased (Simard's cognates: "Mary",
 * "Taittinger", "Massimo"), and a name or acronym of two or three capitals ("FOB", "MIA").
 */
export function readTextFeatures(segments: readonly TimedSegment[]): TextFeatures | undefined {
  const count = segments.length;
  const lengthPrefix = new Float64Array(count + 1);
  const numberCountPrefix = new Int32Array(count + 1);
  const numberHashPrefix = new Int32Array(count + 1);
  const closingMarks = new Uint8Array(count);
  const cognateOffsets = new Int32Array(count + 1);
  let cognateKeys = new Int32Array(Math.max(16, count * 4));
  let keyCount = 0;
  const addKey = (segmentKeysFrom: number, key: number) => {
    for (let index = segmentKeysFrom; index < keyCount; index += 1) if (cognateKeys[index] === key) return;
    if (keyCount === cognateKeys.length) {
      const grown = new Int32Array(cognateKeys.length * 2);
      grown.set(cognateKeys);
      cognateKeys = grown;
    }
    cognateKeys[keyCount] = key;
    keyCount += 1;
  };
  for (let segmentIndex = 0; segmentIndex < count; segmentIndex += 1) {
    const text = (segments[segmentIndex] as TimedSegment).text;
    if (text === undefined) return undefined;
    const segmentKeysFrom = keyCount;
    let numberCount = 0;
    let numberHash = 0;
    let position = 0;
    while (position < text.length) {
      const code = text.charCodeAt(position);
      const character = text[position] as string;
      if (isDigit(code)) {
        let hash = FNV_OFFSET;
        while (position < text.length) {
          const digit = text.charCodeAt(position);
          if (isDigit(digit)) {
            hash = Math.imul(hash ^ digit, FNV_PRIME);
          } else if ((digit === 46 || digit === 44 || digit === 58) && isDigit(text.charCodeAt(position + 1))) {
            hash = Math.imul(hash ^ (digit === 44 ? 46 : digit), FNV_PRIME);
          } else {
            break;
          }
          position += 1;
        }
        numberCount += 1;
        numberHash = (numberHash + hash) | 0;
        continue;
      }
      if (isLetter(code, character)) {
        let prefixHash = FNV_OFFSET;
        let letters = 0;
        let allCapitals = true;
        while (position < text.length) {
          const letterCode = text.charCodeAt(position);
          const letter = text[position] as string;
          if (!isLetter(letterCode, letter)) break;
          if (letters < 4) prefixHash = Math.imul(prefixHash ^ letter.toLowerCase().charCodeAt(0), FNV_PRIME);
          if (allCapitals && !isUpperCase(letterCode, letter)) allCapitals = false;
          letters += 1;
          position += 1;
        }
        if (letters >= 4 || (letters >= 2 && allCapitals)) addKey(segmentKeysFrom, prefixHash | 0);
        continue;
      }
      position += 1;
    }
    lengthPrefix[segmentIndex + 1] = (lengthPrefix[segmentIndex] as number) + text.length;
    numberCountPrefix[segmentIndex + 1] = (numberCountPrefix[segmentIndex] as number) + numberCount;
    numberHashPrefix[segmentIndex + 1] = ((numberHashPrefix[segmentIndex] as number) + numberHash) | 0;
    closingMarks[segmentIndex] = closingMarkOf(text);
    cognateOffsets[segmentIndex + 1] = keyCount;
  }
  return { lengthPrefix, numberCountPrefix, numberHashPrefix, closingMarks, cognateOffsets, cognateKeys: cognateKeys.subarray(0, keyCount) };
}

/** Characters of the reference track for one of the other track's, over the whole film: a translation's usual length. */
export function expectedLengthRatio(reference: TextFeatures, other: TextFeatures): number {
  const referenceCharacters = reference.lengthPrefix[reference.lengthPrefix.length - 1] as number;
  const otherCharacters = other.lengthPrefix[other.lengthPrefix.length - 1] as number;
  return referenceCharacters === 0 || otherCharacters === 0 ? 1 : referenceCharacters / otherCharacters;
}

/** Gale and Church's variance of a translation's length, per character (Computational Linguistics 19(1), 1993). */
const LENGTH_VARIANCE_PER_CHARACTER = 6.8;

/**
 * The weights, beside a time overlap of 0–1 and −0.05 per extra sentence in a link. Larger ones moved links away from
 * the en–et reference on the real film (decision 0025): the timing is the stronger evidence there.
 */
const LINK_EVIDENCE_WEIGHTS = {
  /** Standard deviations a link's lengths may stray from the film's usual ratio before they count against it. */
  lengthTolerance: 2,
  /** Taken per standard deviation beyond the tolerance. */
  length: 0.1,
  /** Added when both sides hold the same numbers, taken when both hold numbers and they differ. */
  numbers: 0.1,
  /** Added when both sides close with the same question or exclamation mark, taken when only one does. */
  closingMark: 0.05,
  /** Added in proportion to the shared cognate keys (Dice coefficient). */
  cognates: 0.1,
} as const;

/**
 * The part of a link's score read from its texts, for reference segments [referenceFrom, referenceTo) and other
 * segments [otherFrom, otherTo): small beside the time overlap (0–1), so it only decides between links that time
 * alone finds about as good.
 */
export function scoreTextEvidence(
  reference: TextFeatures,
  other: TextFeatures,
  lengthRatio: number,
  referenceFrom: number,
  referenceTo: number,
  otherFrom: number,
  otherTo: number,
): number {
  let score = 0;
  const referenceLength = (reference.lengthPrefix[referenceTo] as number) - (reference.lengthPrefix[referenceFrom] as number);
  const otherLength = (other.lengthPrefix[otherTo] as number) - (other.lengthPrefix[otherFrom] as number);
  // Gale and Church's measure: the difference from the usual length, in standard deviations that grow with the
  // square root of the length, so that "Sit up straight." against "Istu." is no evidence and a long sentence against a
  // short one is.
  const expectedOtherLength = referenceLength / lengthRatio;
  const lengthDeviation = Math.abs(otherLength - expectedOtherLength) / Math.sqrt(LENGTH_VARIANCE_PER_CHARACTER * Math.max(1, (expectedOtherLength + otherLength) / 2));
  if (lengthDeviation > LINK_EVIDENCE_WEIGHTS.lengthTolerance) score -= LINK_EVIDENCE_WEIGHTS.length * (lengthDeviation - LINK_EVIDENCE_WEIGHTS.lengthTolerance);

  const referenceNumbers = (reference.numberCountPrefix[referenceTo] as number) - (reference.numberCountPrefix[referenceFrom] as number);
  const otherNumbers = (other.numberCountPrefix[otherTo] as number) - (other.numberCountPrefix[otherFrom] as number);
  if (referenceNumbers > 0 && otherNumbers > 0) {
    const referenceHash = ((reference.numberHashPrefix[referenceTo] as number) - (reference.numberHashPrefix[referenceFrom] as number)) | 0;
    const otherHash = ((other.numberHashPrefix[otherTo] as number) - (other.numberHashPrefix[otherFrom] as number)) | 0;
    score += referenceNumbers === otherNumbers && referenceHash === otherHash ? LINK_EVIDENCE_WEIGHTS.numbers : -LINK_EVIDENCE_WEIGHTS.numbers;
  }

  const referenceMark = reference.closingMarks[referenceTo - 1] as number;
  const otherMark = other.closingMarks[otherTo - 1] as number;
  if (referenceMark !== CLOSING_MARK_NONE || otherMark !== CLOSING_MARK_NONE) score += referenceMark === otherMark ? LINK_EVIDENCE_WEIGHTS.closingMark : -LINK_EVIDENCE_WEIGHTS.closingMark;

  const referenceKeysFrom = reference.cognateOffsets[referenceFrom] as number;
  const referenceKeysTo = reference.cognateOffsets[referenceTo] as number;
  const otherKeysFrom = other.cognateOffsets[otherFrom] as number;
  const otherKeysTo = other.cognateOffsets[otherTo] as number;
  if (referenceKeysTo > referenceKeysFrom && otherKeysTo > otherKeysFrom) {
    let shared = 0;
    for (let left = referenceKeysFrom; left < referenceKeysTo; left += 1) {
      const key = reference.cognateKeys[left] as number;
      for (let right = otherKeysFrom; right < otherKeysTo; right += 1) {
        if (other.cognateKeys[right] === key) {
          shared += 1;
          break;
        }
      }
    }
    score += (LINK_EVIDENCE_WEIGHTS.cognates * 2 * shared) / (referenceKeysTo - referenceKeysFrom + otherKeysTo - otherKeysFrom);
  }
  return score;
}
