import { estimateSubtitleTimeMap, type TimeMapEstimate } from "./estimate-subtitle-time-map.ts";
import { expectedLengthRatio, readTextFeatures, scoreTextEvidence, type LinkEvidence, type TextFeatures, type TimedSegment } from "./link-evidence.ts";
import { mapTime, temporalIntersectionOverUnion, unionOfSpans, overlapOfUnions, totalDuration, type SubtitleTimeMap, type TimedSpan } from "./timed-span.ts";

/** One step of the alignment: indexes into the reference and the other list; either side may be empty. */
export interface AlignmentLink {
  referenceIndexes: number[];
  otherIndexes: number[];
  /** Temporal IoU of the two groups after mapping the other track's times; 0 for an unmatched cue. */
  overlap: number;
}

export interface TimedSegmentAlignmentOptions {
  /** Half-width of the dynamic-programming band around the time map, in ms (default 8,000). */
  bandMilliseconds?: number;
  /** Score of leaving one segment unmatched (default −0.15). */
  skipScore?: number;
  /** Penalty per extra segment in a group (default 0.05). */
  extraSegmentPenalty?: number;
  /** Largest offset searched, in ms (default 300,000). */
  maximumOffsetMilliseconds?: number;
  /** Skips the estimate and starts from this map, e.g. a user-given offset. */
  initialTimeMap?: SubtitleTimeMap;
  /** Aligns inside this map as it is: no estimate, no refit, no splice search (e.g. a map found on the cues). */
  fixedTimeMap?: SubtitleTimeMap;
  /**
   * What chooses between competing links: time overlap alone (default), or time overlap with the length ratio and
   * cheap lexical evidence read from the segments' `text` (numbers, names and cognates, closing ? and !).
   */
  linkEvidence?: LinkEvidence;
}

/** The texts' part of the link score, when the alignment reads it. */
interface TextEvidence {
  reference: TextFeatures;
  other: TextFeatures;
  lengthRatio: number;
}

export interface TimedSegmentAlignment {
  links: AlignmentLink[];
  timeMap: SubtitleTimeMap;
  estimate: TimeMapEstimate;
  spliceDetected: boolean;
}

const GROUP_MOVES: readonly (readonly [number, number])[] = [
  [1, 1],
  [1, 0],
  [0, 1],
  [1, 2],
  [2, 1],
  [1, 3],
  [3, 1],
  [2, 2],
];

/**
 * Aligns two time-ordered lists of timed segments (cues or sentences) into monotonic 1:1, 1:2, 2:1, 1:3, 3:1, 2:2,
 * 1:0 and 0:1 links: estimate a global time map, run a banded dynamic programme scored by temporal IoU (and, with
 * `linkEvidence: "time-length-and-lexical"`, by the texts' lengths and lexical evidence), refit the map on confident
 * 1:1 links, and switch to a piecewise map when windows show a splice.
 *
 * @example
 * const { links } = alignTimedSegments(englishSentences, estonianSentences);
 * links[0]; // { referenceIndexes: [0], otherIndexes: [0], overlap: 0.88 }
 */
export function alignTimedSegments(
  reference: readonly TimedSegment[],
  other: readonly TimedSegment[],
  options: TimedSegmentAlignmentOptions = {},
): TimedSegmentAlignment {
  const textEvidence = readTextEvidence(reference, other, options);
  const runBandedAlignment = (timeMap: SubtitleTimeMap) => runBandedAlignmentWithEvidence(reference, other, timeMap, options, textEvidence);
  if (options.fixedTimeMap !== undefined) {
    const timeMap = options.fixedTimeMap;
    const estimate: TimeMapEstimate = { frameRateRatio: timeMap.frameRateRatio, offsetMilliseconds: timeMap.offsetMilliseconds, score: 1, runnerUpScore: 0, alternativeOffsetsMilliseconds: [] };
    return { links: runBandedAlignment(timeMap), timeMap, estimate, spliceDetected: false };
  }
  const estimate = estimateSubtitleTimeMap(reference, other, { maximumOffsetMilliseconds: options.maximumOffsetMilliseconds ?? 300_000 });
  let timeMap: SubtitleTimeMap = options.initialTimeMap ?? { frameRateRatio: estimate.frameRateRatio, offsetMilliseconds: estimate.offsetMilliseconds };
  let links = runBandedAlignment(timeMap);

  const refitted = refitTimeMap(reference, other, links, timeMap);
  if (refitted !== undefined) {
    timeMap = refitted;
    links = runBandedAlignment(timeMap);
  }

  const windowCorrections = findSpliceCorrections(reference, other, timeMap, estimate.alternativeOffsetsMilliseconds);
  let spliceDetected = false;
  if (windowCorrections !== undefined) {
    spliceDetected = true;
    timeMap = { ...timeMap, piecewiseCorrections: windowCorrections };
    links = runBandedAlignment(timeMap);
    for (let pass = 0; pass < 2; pass += 1) {
      const anchorCorrections = correctionsFromAnchors(reference, other, links, timeMap);
      if (anchorCorrections === undefined) break;
      timeMap = { ...timeMap, piecewiseCorrections: anchorCorrections };
      links = runBandedAlignment(timeMap);
    }
  }
  return { links, timeMap, estimate, spliceDetected };
}

function readTextEvidence(reference: readonly TimedSegment[], other: readonly TimedSegment[], options: TimedSegmentAlignmentOptions): TextEvidence | undefined {
  if ((options.linkEvidence ?? "time") === "time") return undefined;
  const referenceFeatures = readTextFeatures(reference);
  const otherFeatures = readTextFeatures(other);
  if (referenceFeatures === undefined || otherFeatures === undefined) return undefined;
  return {
    reference: referenceFeatures,
    other: otherFeatures,
    lengthRatio: expectedLengthRatio(referenceFeatures, otherFeatures),
  };
}

function runBandedAlignmentWithEvidence(
  reference: readonly TimedSpan[],
  other: readonly TimedSpan[],
  timeMap: SubtitleTimeMap,
  options: TimedSegmentAlignmentOptions,
  textEvidence: TextEvidence | undefined,
): AlignmentLink[] {
  const bandMilliseconds = options.bandMilliseconds ?? 8_000;
  const skipScore = options.skipScore ?? -0.15;
  const extraSegmentPenalty = options.extraSegmentPenalty ?? 0.05;
  const referenceCount = reference.length;
  const otherCount = other.length;
  const mappedStarts = new Float64Array(otherCount);
  const mappedEnds = new Float64Array(otherCount);
  other.forEach((span, index) => {
    mappedStarts[index] = mapTime(timeMap, span.startMilliseconds);
    mappedEnds[index] = Math.max(mapTime(timeMap, span.endMilliseconds), mappedStarts[index] as number);
  });

  // Row i holds cells (i, j) for j in [low[i], high[i]]: the other segments whose mapped start lies within the band
  // around the start of reference segment i. The extension below keeps every row reachable from the previous one.
  const low = new Int32Array(referenceCount + 1);
  const high = new Int32Array(referenceCount + 1);
  let lowPointer = 0;
  let highPointer = 0;
  for (let row = 0; row <= referenceCount; row += 1) {
    const anchor = row < referenceCount ? (reference[row] as TimedSpan).startMilliseconds : Number.POSITIVE_INFINITY;
    while (lowPointer < otherCount && (mappedStarts[lowPointer] as number) < anchor - bandMilliseconds) lowPointer += 1;
    while (highPointer < otherCount && (mappedStarts[highPointer] as number) <= anchor + bandMilliseconds) highPointer += 1;
    low[row] = row === 0 ? 0 : Math.max(low[row - 1] as number, lowPointer);
    high[row] = row === referenceCount ? otherCount : Math.max(highPointer, low[row] as number);
  }
  for (let row = referenceCount - 1; row >= 0; row -= 1) {
    high[row] = Math.max(high[row] as number, low[row + 1] as number);
  }
  for (let row = 1; row <= referenceCount; row += 1) {
    high[row] = Math.max(high[row] as number, high[row - 1] as number);
  }
  const rowStart = new Int32Array(referenceCount + 2);
  for (let row = 0; row <= referenceCount; row += 1) {
    rowStart[row + 1] = (rowStart[row] as number) + (high[row] as number) - (low[row] as number) + 1;
  }
  const cellCount = rowStart[referenceCount + 1] as number;
  const scores = new Float64Array(cellCount).fill(Number.NEGATIVE_INFINITY);
  const moves = new Int8Array(cellCount).fill(-1);
  const cellIndex = (row: number, column: number) =>
    column < (low[row] as number) || column > (high[row] as number) ? -1 : (rowStart[row] as number) + column - (low[row] as number);

  scores[0] = 0;
  for (let row = 0; row <= referenceCount; row += 1) {
    for (let column = low[row] as number; column <= (high[row] as number); column += 1) {
      const cell = cellIndex(row, column);
      if (row === 0 && column === 0) continue;
      let bestScore = Number.NEGATIVE_INFINITY;
      let bestMove = -1;
      for (let moveIndex = 0; moveIndex < GROUP_MOVES.length; moveIndex += 1) {
        const [referenceStep, otherStep] = GROUP_MOVES[moveIndex] as readonly [number, number];
        const previousRow = row - referenceStep;
        const previousColumn = column - otherStep;
        if (previousRow < 0 || previousColumn < 0) continue;
        const previousCell = cellIndex(previousRow, previousColumn);
        if (previousCell === -1) continue;
        const previousScore = scores[previousCell] as number;
        if (previousScore === Number.NEGATIVE_INFINITY) continue;
        let stepScore: number;
        if (referenceStep === 0 || otherStep === 0) {
          stepScore = skipScore;
        } else {
          const overlap = groupOverlap(reference, mappedStarts, mappedEnds, previousRow, row, previousColumn, column);
          // A link with no shared time is never better than leaving both sides unmatched.
          if (overlap === 0) {
            stepScore = Number.NEGATIVE_INFINITY;
          } else {
            stepScore = overlap - extraSegmentPenalty * (referenceStep + otherStep - 2);
            if (textEvidence !== undefined) {
              stepScore += scoreTextEvidence(textEvidence.reference, textEvidence.other, textEvidence.lengthRatio, previousRow, row, previousColumn, column);
            }
          }
        }
        const candidate = previousScore + stepScore;
        if (candidate > bestScore) {
          bestScore = candidate;
          bestMove = moveIndex;
        }
      }
      scores[cell] = bestScore;
      moves[cell] = bestMove;
    }
  }

  const links: AlignmentLink[] = [];
  let row = referenceCount;
  let column = otherCount;
  while (row > 0 || column > 0) {
    const move = moves[cellIndex(row, column)] as number;
    if (move < 0) throw new Error("runBandedAlignment lost its path; the band construction has a bug.");
    const [referenceStep, otherStep] = GROUP_MOVES[move] as readonly [number, number];
    const referenceIndexes = range(row - referenceStep, row);
    const otherIndexes = range(column - otherStep, column);
    const overlap =
      referenceStep === 0 || otherStep === 0 ? 0 : groupOverlap(reference, mappedStarts, mappedEnds, row - referenceStep, row, column - otherStep, column);
    links.push({ referenceIndexes, otherIndexes, overlap });
    row -= referenceStep;
    column -= otherStep;
  }
  return links.reverse();
}

function groupOverlap(
  reference: readonly TimedSpan[],
  mappedStarts: Float64Array,
  mappedEnds: Float64Array,
  referenceFrom: number,
  referenceTo: number,
  otherFrom: number,
  otherTo: number,
): number {
  let referenceStart = Number.POSITIVE_INFINITY;
  let referenceEnd = Number.NEGATIVE_INFINITY;
  for (let index = referenceFrom; index < referenceTo; index += 1) {
    const span = reference[index] as TimedSpan;
    referenceStart = Math.min(referenceStart, span.startMilliseconds);
    referenceEnd = Math.max(referenceEnd, span.endMilliseconds);
  }
  let otherStart = Number.POSITIVE_INFINITY;
  let otherEnd = Number.NEGATIVE_INFINITY;
  for (let index = otherFrom; index < otherTo; index += 1) {
    otherStart = Math.min(otherStart, mappedStarts[index] as number);
    otherEnd = Math.max(otherEnd, mappedEnds[index] as number);
  }
  return temporalIntersectionOverUnion(
    { startMilliseconds: referenceStart, endMilliseconds: referenceEnd },
    { startMilliseconds: otherStart, endMilliseconds: otherEnd },
  );
}

function range(from: number, to: number): number[] {
  const values: number[] = [];
  for (let value = from; value < to; value += 1) values.push(value);
  return values;
}

function middle(span: TimedSpan): number {
  return (span.startMilliseconds + span.endMilliseconds) / 2;
}

function median(values: Float64Array | number[]): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return Number.NaN;
  const half = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[half] as number) : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2;
}

/** Theil–Sen line through confident 1:1 links (median pairwise slope, then median intercept), on at most 300 of them. */
function refitTimeMap(
  reference: readonly TimedSpan[],
  other: readonly TimedSpan[],
  links: readonly AlignmentLink[],
  timeMap: SubtitleTimeMap,
): SubtitleTimeMap | undefined {
  const anchors = links.filter((link) => link.referenceIndexes.length === 1 && link.otherIndexes.length === 1 && link.overlap > 0.6);
  if (anchors.length < 20) return undefined;
  const step = Math.max(1, Math.floor(anchors.length / 300));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let index = 0; index < anchors.length; index += step) {
    const anchor = anchors[index] as AlignmentLink;
    xs.push(middle(other[anchor.otherIndexes[0] as number] as TimedSpan));
    ys.push(middle(reference[anchor.referenceIndexes[0] as number] as TimedSpan));
  }
  const slopes: number[] = [];
  for (let left = 0; left < xs.length; left += 1) {
    for (let right = left + 1; right < xs.length; right += 1) {
      const deltaX = (xs[right] as number) - (xs[left] as number);
      if (Math.abs(deltaX) > 10_000) slopes.push(((ys[right] as number) - (ys[left] as number)) / deltaX);
    }
  }
  const slope = median(slopes);
  if (!Number.isFinite(slope) || Math.abs(slope / timeMap.frameRateRatio - 1) > 0.01) return undefined;
  const intercept = median(xs.map((x, index) => (ys[index] as number) - slope * x));
  return { frameRateRatio: slope, offsetMilliseconds: intercept };
}

const SPLICE_WINDOW_MILLISECONDS = 120_000;
const SPLICE_HOP_MILLISECONDS = 30_000;
const SPLICE_SEARCH_MILLISECONDS = 20_000;
const SPLICE_THRESHOLD_MILLISECONDS = 1_500;

/**
 * Local lags of 120 s windows against the global map. Two or more neighbouring windows that disagree by more than
 * 1.5 s mean a recut or an ad break, and the median-filtered window lags become a piecewise correction.
 */
function findSpliceCorrections(
  reference: readonly TimedSpan[],
  other: readonly TimedSpan[],
  timeMap: SubtitleTimeMap,
  alternativeOffsetsMilliseconds: readonly number[],
): SubtitleTimeMap["piecewiseCorrections"] | undefined {
  const candidateShifts: number[] = [];
  for (let shift = -SPLICE_SEARCH_MILLISECONDS; shift <= SPLICE_SEARCH_MILLISECONDS; shift += 200) candidateShifts.push(shift);
  // A splice longer than the local search shows up as another peak of the global correlation; look there too.
  for (const alternative of alternativeOffsetsMilliseconds) {
    const relative = Math.round((alternative - timeMap.offsetMilliseconds) / 200) * 200;
    if (Math.abs(relative) <= SPLICE_SEARCH_MILLISECONDS) continue;
    for (let shift = relative - 2_000; shift <= relative + 2_000; shift += 200) candidateShifts.push(shift);
  }
  const largestShift = Math.max(...candidateShifts.map(Math.abs)) + 1_000;
  const referenceUnion = unionOfSpans(reference);
  const mappedOtherUnion = unionOfSpans(other.map((span) => ({ startMilliseconds: mapTime(timeMap, span.startMilliseconds), endMilliseconds: mapTime(timeMap, span.endMilliseconds) })));
  if (referenceUnion.length === 0 || mappedOtherUnion.length === 0) return undefined;
  const firstStart = (referenceUnion[0] as TimedSpan).startMilliseconds;
  const lastEnd = (referenceUnion[referenceUnion.length - 1] as TimedSpan).endMilliseconds;
  const windowCenters: number[] = [];
  const windowLags: number[] = [];
  for (let windowStart = firstStart; windowStart < lastEnd; windowStart += SPLICE_HOP_MILLISECONDS) {
    const windowEnd = windowStart + SPLICE_WINDOW_MILLISECONDS;
    const referenceWindow = clipUnion(referenceUnion, windowStart, windowEnd);
    const otherWindow = clipUnion(mappedOtherUnion, windowStart - largestShift, windowEnd + largestShift);
    const referenceActive = totalDuration(referenceWindow);
    if (referenceActive < SPLICE_WINDOW_MILLISECONDS * 0.15) continue;
    let bestShift = 0;
    let bestOverlap = -1;
    let zeroOverlap = 0;
    for (const shift of candidateShifts) {
      const overlap = overlapOfUnions(referenceWindow, otherWindow, shift);
      if (shift === 0) zeroOverlap = overlap;
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        bestShift = shift;
      }
    }
    if (bestOverlap < referenceActive * 0.5) continue;
    windowCenters.push(windowStart + SPLICE_WINDOW_MILLISECONDS / 2);
    // Only a clearly better local fit moves a window; otherwise it keeps the global map.
    windowLags.push(bestOverlap >= zeroOverlap * 1.15 ? bestShift : 0);
  }
  let consecutiveDeviations = 0;
  let spliceFound = false;
  windowLags.forEach((lag) => {
    consecutiveDeviations = Math.abs(lag) > SPLICE_THRESHOLD_MILLISECONDS ? consecutiveDeviations + 1 : 0;
    if (consecutiveDeviations >= 2) spliceFound = true;
  });
  if (!spliceFound) return undefined;
  const filteredLags = windowLags.map((_, index) => median(windowLags.slice(Math.max(0, index - 1), index + 2)));
  return toOtherClockCorrections(windowCenters, filteredLags, timeMap);
}

/** The part of a union (sorted, disjoint) inside [from, to); a binary search finds the first span, so a window costs its own spans only. */
function clipUnion(union: readonly TimedSpan[], from: number, to: number): TimedSpan[] {
  let low = 0;
  let high = union.length;
  while (low < high) {
    const middleIndex = (low + high) >> 1;
    if ((union[middleIndex] as TimedSpan).endMilliseconds <= from) low = middleIndex + 1;
    else high = middleIndex;
  }
  const clipped: TimedSpan[] = [];
  for (let index = low; index < union.length; index += 1) {
    const span = union[index] as TimedSpan;
    if (span.startMilliseconds >= to) break;
    clipped.push({ startMilliseconds: Math.max(from, span.startMilliseconds), endMilliseconds: Math.min(to, span.endMilliseconds) });
  }
  return clipped;
}

function toOtherClockCorrections(referenceTimes: readonly number[], corrections: readonly number[], timeMap: SubtitleTimeMap) {
  const previous = timeMap.piecewiseCorrections;
  return referenceTimes
    .map((referenceTime, index) => {
      const linearOther = (referenceTime - timeMap.offsetMilliseconds) / timeMap.frameRateRatio;
      const previousCorrection = previous === undefined ? 0 : mapTime(timeMap, linearOther) - (timeMap.frameRateRatio * linearOther + timeMap.offsetMilliseconds);
      return { otherMilliseconds: linearOther, correctionMilliseconds: previousCorrection + (corrections[index] as number) };
    })
    .sort((left, right) => left.otherMilliseconds - right.otherMilliseconds);
}

/** Running median (7 anchors) of the residuals of confident 1:1 links, as a sharper piecewise correction. */
function correctionsFromAnchors(
  reference: readonly TimedSpan[],
  other: readonly TimedSpan[],
  links: readonly AlignmentLink[],
  timeMap: SubtitleTimeMap,
): SubtitleTimeMap["piecewiseCorrections"] | undefined {
  const anchors = links.filter((link) => link.referenceIndexes.length === 1 && link.otherIndexes.length === 1 && link.overlap > 0.5);
  if (anchors.length < 20) return undefined;
  const otherTimes = anchors.map((anchor) => middle(other[anchor.otherIndexes[0] as number] as TimedSpan));
  const corrections = anchors.map((anchor, index) => {
    const otherTime = otherTimes[index] as number;
    const residual = middle(reference[anchor.referenceIndexes[0] as number] as TimedSpan) - mapTime(timeMap, otherTime);
    return mapTime(timeMap, otherTime) - (timeMap.frameRateRatio * otherTime + timeMap.offsetMilliseconds) + residual;
  });
  return otherTimes.map((otherMilliseconds, index) => ({
    otherMilliseconds,
    correctionMilliseconds: median(corrections.slice(Math.max(0, index - 3), index + 4)),
  }));
}

/** Shared showing time of the two tracks under a map, over the smaller track's showing time. */
export function measureTimeMapFit(reference: readonly TimedSpan[], other: readonly TimedSpan[], timeMap: SubtitleTimeMap): number {
  const referenceUnion = unionOfSpans(reference);
  const mappedOtherUnion = unionOfSpans(other.map((span) => ({ startMilliseconds: mapTime(timeMap, span.startMilliseconds), endMilliseconds: mapTime(timeMap, span.endMilliseconds) })));
  const normalizer = Math.min(totalDuration(referenceUnion), totalDuration(mappedOtherUnion));
  return normalizer === 0 ? 0 : overlapOfUnions(referenceUnion, mappedOtherUnion, 0) / normalizer;
}
