import {
  findOneToOneAnchors,
  GROUP_MOVE_OTHER_STEPS,
  GROUP_MOVE_REFERENCE_STEPS,
  runBandedAlignmentWithEvidence,
  type BandedAlignmentScoring,
  type BandedPath,
  type TextEvidence,
} from "./banded-alignment-path.ts";
import { estimateSubtitleTimeMap, type TimeMapEstimate } from "./estimate-subtitle-time-map.ts";
import { expectedLengthRatio, readTextFeatures, type LinkEvidence, type TimedSegment } from "./link-evidence.ts";
import {
  createShiftedOverlapScanner,
  firstSpanEndingAfter,
  mapTime,
  overlapOfUnions,
  totalDuration,
  unionOfSpans,
  type ShiftRun,
  type SubtitleTimeMap,
  type TimedSpan,
} from "./timed-span.ts";

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

export interface TimedSegmentAlignment {
  links: AlignmentLink[];
  timeMap: SubtitleTimeMap;
  estimate: TimeMapEstimate;
  spliceDetected: boolean;
}

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
  const { path, timeMap, estimate, spliceDetected } = alignAlongBandedPath(reference, other, options);
  return { links: toAlignmentLinks(path), timeMap, estimate, spliceDetected };
}

/**
 * The time map and splice flag that `alignTimedSegments` ends with, without its links: for a caller that aligns
 * something else inside the map (`alignSubtitleTracks` finds the map on the cues and links the sentences).
 */
export function findAlignedTimeMap(
  reference: readonly TimedSegment[],
  other: readonly TimedSegment[],
  options: TimedSegmentAlignmentOptions = {},
): Pick<TimedSegmentAlignment, "timeMap" | "spliceDetected"> {
  const { timeMap, spliceDetected } = alignAlongBandedPath(reference, other, options);
  return { timeMap, spliceDetected };
}

function alignAlongBandedPath(
  reference: readonly TimedSegment[],
  other: readonly TimedSegment[],
  options: TimedSegmentAlignmentOptions,
): Omit<TimedSegmentAlignment, "links"> & { path: BandedPath } {
  const textEvidence = readTextEvidence(reference, other, options);
  const scoring: BandedAlignmentScoring = {
    bandMilliseconds: options.bandMilliseconds ?? 8_000,
    skipScore: options.skipScore ?? -0.15,
    extraSegmentPenalty: options.extraSegmentPenalty ?? 0.05,
  };
  const runBandedAlignment = (timeMap: SubtitleTimeMap) => runBandedAlignmentWithEvidence(reference, other, timeMap, scoring, textEvidence);
  if (options.fixedTimeMap !== undefined) {
    const timeMap = options.fixedTimeMap;
    const estimate: TimeMapEstimate = { frameRateRatio: timeMap.frameRateRatio, offsetMilliseconds: timeMap.offsetMilliseconds, score: 1, runnerUpScore: 0, alternativeOffsetsMilliseconds: [] };
    return { path: runBandedAlignment(timeMap), timeMap, estimate, spliceDetected: false };
  }
  const estimate = estimateSubtitleTimeMap(reference, other, { maximumOffsetMilliseconds: options.maximumOffsetMilliseconds ?? 300_000 });
  let timeMap: SubtitleTimeMap = options.initialTimeMap ?? { frameRateRatio: estimate.frameRateRatio, offsetMilliseconds: estimate.offsetMilliseconds };
  let path = runBandedAlignment(timeMap);

  const refitted = refitTimeMap(reference, other, path, timeMap);
  if (refitted !== undefined) {
    timeMap = refitted;
    path = runBandedAlignment(timeMap);
  }

  const windowCorrections = findSpliceCorrections(reference, other, timeMap, estimate.alternativeOffsetsMilliseconds);
  let spliceDetected = false;
  if (windowCorrections !== undefined) {
    spliceDetected = true;
    timeMap = { ...timeMap, piecewiseCorrections: windowCorrections };
    path = runBandedAlignment(timeMap);
    for (let pass = 0; pass < 2; pass += 1) {
      const anchorCorrections = correctionsFromAnchors(reference, other, path, timeMap);
      if (anchorCorrections === undefined) break;
      timeMap = { ...timeMap, piecewiseCorrections: anchorCorrections };
      path = runBandedAlignment(timeMap);
    }
  }
  return { path, timeMap, estimate, spliceDetected };
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


/** The path's links as `AlignmentLink`s, in order. */
function toAlignmentLinks(path: BandedPath): AlignmentLink[] {
  const links: AlignmentLink[] = new Array<AlignmentLink>(path.moves.length);
  for (let index = 0; index < path.moves.length; index += 1) {
    const move = path.moves[index] as number;
    const referenceFrom = path.referenceFrom[index] as number;
    const otherFrom = path.otherFrom[index] as number;
    links[index] = {
      referenceIndexes: range(referenceFrom, referenceFrom + (GROUP_MOVE_REFERENCE_STEPS[move] as number)),
      otherIndexes: range(otherFrom, otherFrom + (GROUP_MOVE_OTHER_STEPS[move] as number)),
      overlap: path.overlaps[index] as number,
    };
  }
  return links;
}


/** from, from + 1, …, to − 1, in an array of exactly that length (a link holds at most three). */
function range(from: number, to: number): number[] {
  const values = new Array<number>(to - from);
  for (let value = from; value < to; value += 1) values[value - from] = value;
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
  path: BandedPath,
  timeMap: SubtitleTimeMap,
): SubtitleTimeMap | undefined {
  const anchors = findOneToOneAnchors(path, 0.6);
  const anchorCount = anchors.referenceIndexes.length;
  if (anchorCount < 20) return undefined;
  const step = Math.max(1, Math.floor(anchorCount / 300));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let index = 0; index < anchorCount; index += step) {
    xs.push(middle(other[anchors.otherIndexes[index] as number] as TimedSpan));
    ys.push(middle(reference[anchors.referenceIndexes[index] as number] as TimedSpan));
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

const SPLICE_HOP_MILLISECONDS = 30_000;
const SPLICE_HOPS_PER_WINDOW = 4;
const SPLICE_WINDOW_MILLISECONDS = SPLICE_HOPS_PER_WINDOW * SPLICE_HOP_MILLISECONDS;
const SPLICE_SEARCH_MILLISECONDS = 20_000;
const SPLICE_THRESHOLD_MILLISECONDS = 1_500;
const SPLICE_SHIFT_STEP_MILLISECONDS = 200;

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
  // Runs of shifts 200 ms apart, searched in this order: the local search, then around each other peak of the global
  // correlation (a splice longer than the local search shows up there).
  const shiftRuns: ShiftRun[] = [{ firstShift: -SPLICE_SEARCH_MILLISECONDS, count: (2 * SPLICE_SEARCH_MILLISECONDS) / SPLICE_SHIFT_STEP_MILLISECONDS + 1 }];
  for (const alternative of alternativeOffsetsMilliseconds) {
    const relative = Math.round((alternative - timeMap.offsetMilliseconds) / SPLICE_SHIFT_STEP_MILLISECONDS) * SPLICE_SHIFT_STEP_MILLISECONDS;
    if (Math.abs(relative) <= SPLICE_SEARCH_MILLISECONDS) continue;
    shiftRuns.push({ firstShift: relative - 2_000, count: 4_000 / SPLICE_SHIFT_STEP_MILLISECONDS + 1 });
  }
  const candidateShifts = Float64Array.from(shiftRuns.flatMap(({ firstShift, count }) => Array.from({ length: count }, (_, index) => firstShift + index * SPLICE_SHIFT_STEP_MILLISECONDS)));
  const largestShift = Math.max(...candidateShifts.map(Math.abs)) + 1_000;
  const referenceUnion = unionOfSpans(reference);
  const mappedOtherUnion = unionOfSpans(other.map((span) => ({ startMilliseconds: mapTime(timeMap, span.startMilliseconds), endMilliseconds: mapTime(timeMap, span.endMilliseconds) })));
  if (referenceUnion.length === 0 || mappedOtherUnion.length === 0) return undefined;
  const firstStart = (referenceUnion[0] as TimedSpan).startMilliseconds;
  const lastEnd = (referenceUnion[referenceUnion.length - 1] as TimedSpan).endMilliseconds;
  // A window is four hops, and its overlap at a shift is the sum of its hops' overlaps: each hop's overlaps at every
  // shift are found once, to within a rounding allowance, and kept for the four windows that hold it.
  const scanShiftedOverlaps = createShiftedOverlapScanner(shiftRuns, SPLICE_SHIFT_STEP_MILLISECONDS);
  const hopOverlaps = Array.from({ length: SPLICE_HOPS_PER_WINDOW }, () => new Float64Array(candidateShifts.length));
  const hopAllowances = new Float64Array(SPLICE_HOPS_PER_WINDOW);
  let hopsRead = 0;
  let nextHopStart = firstStart;
  const readNextHop = () => {
    const hopEnd = nextHopStart + SPLICE_HOP_MILLISECONDS;
    const slot = hopsRead % SPLICE_HOPS_PER_WINDOW;
    // The other track is not clipped: its spans beyond the window and the largest shift add nothing.
    hopAllowances[slot] = scanShiftedOverlaps(clipUnion(referenceUnion, nextHopStart, hopEnd), mappedOtherUnion, hopOverlaps[slot] as Float64Array);
    hopsRead += 1;
    nextHopStart = hopEnd;
  };
  for (let hop = 1; hop < SPLICE_HOPS_PER_WINDOW; hop += 1) readNextHop();
  const approximateOverlaps = new Float64Array(candidateShifts.length);
  const windowCenters: number[] = [];
  const windowLags: number[] = [];
  for (let windowStart = firstStart; windowStart < lastEnd; windowStart += SPLICE_HOP_MILLISECONDS) {
    readNextHop();
    const windowEnd = windowStart + SPLICE_WINDOW_MILLISECONDS;
    const referenceWindow = clipUnion(referenceUnion, windowStart, windowEnd);
    const referenceActive = totalDuration(referenceWindow);
    if (referenceActive < SPLICE_WINDOW_MILLISECONDS * 0.15) continue;
    const [first, second, third, fourth] = hopOverlaps as [Float64Array, Float64Array, Float64Array, Float64Array];
    for (let index = 0; index < approximateOverlaps.length; index += 1) {
      approximateOverlaps[index] = (first[index] as number) + (second[index] as number) + ((third[index] as number) + (fourth[index] as number));
    }
    let allowance = 0;
    for (let slot = 0; slot < SPLICE_HOPS_PER_WINDOW; slot += 1) allowance += hopAllowances[slot] as number;
    // Hop edges and window edges are added up differently: a few more rounding steps on top of the hops' own.
    allowance = 2 * allowance + 16 * Number.EPSILON * (Math.abs(windowStart) + Math.abs(windowEnd) + largestShift);
    // The other spans that end before the window less the largest shift add nothing at any shift (nor would they,
    // clipped to the window and the largest shift as the search once did, so the exact sums are the same).
    const otherFrom = firstSpanEndingAfter(mappedOtherUnion, windowStart - largestShift);
    const exactOverlapAt = (shift: number) => overlapOfUnions(referenceWindow, mappedOtherUnion, shift, otherFrom);
    const { bestShift, bestOverlap } = findBestShift(candidateShifts, approximateOverlaps, allowance, exactOverlapAt);
    const zeroOverlap = exactOverlapAt(0);
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

/**
 * The first shift with the highest exact overlap, as if every shift's exact overlap were computed: only the shifts
 * whose approximate overlap (within `allowance` of the exact one) comes within twice the allowance of the highest
 * approximate overlap can be that shift, so only theirs are computed.
 */
function findBestShift(
  shifts: Float64Array,
  approximateOverlaps: Float64Array,
  allowance: number,
  exactOverlapAt: (shift: number) => number,
): { bestShift: number; bestOverlap: number } {
  let highestApproximateOverlap = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < approximateOverlaps.length; index += 1) highestApproximateOverlap = Math.max(highestApproximateOverlap, approximateOverlaps[index] as number);
  let bestShift = 0;
  let bestOverlap = -1;
  for (let index = 0; index < shifts.length; index += 1) {
    if ((approximateOverlaps[index] as number) < highestApproximateOverlap - 2 * allowance) continue;
    const overlap = exactOverlapAt(shifts[index] as number);
    if (overlap > bestOverlap) {
      bestOverlap = overlap;
      bestShift = shifts[index] as number;
    }
  }
  return { bestShift, bestOverlap };
}

/** The part of a union (sorted, disjoint) inside [from, to); a binary search finds the first span, so a window costs its own spans only. */
function clipUnion(union: readonly TimedSpan[], from: number, to: number): TimedSpan[] {
  const low = firstSpanEndingAfter(union, from);
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
  path: BandedPath,
  timeMap: SubtitleTimeMap,
): SubtitleTimeMap["piecewiseCorrections"] | undefined {
  const anchors = findOneToOneAnchors(path, 0.5);
  if (anchors.referenceIndexes.length < 20) return undefined;
  const otherTimes = anchors.otherIndexes.map((otherIndex) => middle(other[otherIndex] as TimedSpan));
  const corrections = anchors.referenceIndexes.map((referenceIndex, index) => {
    const otherTime = otherTimes[index] as number;
    const residual = middle(reference[referenceIndex] as TimedSpan) - mapTime(timeMap, otherTime);
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
