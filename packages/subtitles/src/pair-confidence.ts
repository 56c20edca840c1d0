/** What a card's confidence is read from. */
export interface PairEvidence {
  english: string;
  swedish: string;
  /** Temporal IoU of the two sides once the time map is applied (0–1). */
  overlap: number;
}

/** Characters a side of an English–Swedish translation may run long or short before it counts against the pair. */
const LENGTH_RATIO_TOLERANCE = 1.6;

const DIGIT = /\d/;

function numbersIn(text: string): string[] {
  return (text.match(/\d+(?:[.,:]\d+)?/g) ?? []).map((number) => number.replace(",", ".")).sort();
}

function closingMark(text: string): string {
  return /([?!])["'»”’)\]]*$/.exec(text.trim())?.[1] ?? ".";
}

/**
 * A pair's confidence, 0–1: mostly how well the two sides overlap in time, then whether their lengths fit a
 * translation, and cheap lexical evidence: the same numbers on both sides, the same closing question or exclamation
 * mark. Below about 0.5 a learner should check the pair.
 *
 * @example
 * scorePairConfidence({ english: "Where are you?", swedish: "Var är du?", overlap: 0.9 }); // 0.94
 */
export function scorePairConfidence({ english, swedish, overlap }: PairEvidence): number {
  const ratio = Math.max(english.length, swedish.length) / Math.max(1, Math.min(english.length, swedish.length));
  // 1 up to the tolerance, then down to 0 at three times it.
  const lengthScore = ratio <= LENGTH_RATIO_TOLERANCE ? 1 : Math.max(0, 1 - (ratio - LENGTH_RATIO_TOLERANCE) / (2 * LENGTH_RATIO_TOLERANCE));
  const markScore = closingMark(english) === closingMark(swedish) ? 1 : 0.5;
  // Most cards hold no digit at all, and then their numbers agree.
  const numbersAgree = (!DIGIT.test(english) && !DIGIT.test(swedish)) || numbersIn(english).join(" ") === numbersIn(swedish).join(" ");
  const score = (0.6 * Math.min(1, Math.max(0, overlap)) + 0.25 * lengthScore + 0.15 * markScore) * (numbersAgree ? 1 : 0.75);
  return Math.round(score * 100) / 100;
}
