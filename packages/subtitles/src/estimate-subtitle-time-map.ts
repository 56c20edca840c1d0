import { createCrossCorrelator } from "./fast-fourier-transform.ts";
import { createShiftedOverlapScanner, overlapOfUnions, totalDuration, unionOfSpans, type SubtitleTimeMap, type TimedSpan } from "./timed-span.ts";

export interface TimeMapEstimate extends SubtitleTimeMap {
  /** Shared showing time over the smaller track's showing time at the best map, in [0, 1]. */
  score: number;
  /** Best score of a map more than 10 s away, at the same ratio; close to `score` means an ambiguous result. */
  runnerUpScore: number;
  /** Offsets of the next-best peaks at the same ratio: where the rest of the film sits after a splice. */
  alternativeOffsetsMilliseconds: number[];
}

export interface TimeMapEstimateOptions {
  maximumOffsetMilliseconds?: number;
  binMilliseconds?: number;
  candidateRatios?: readonly number[];
}

/** Scores within 1 % of the best count as an equal fit; real films' right map stands well above the rest. */
const EQUAL_FIT_TOLERANCE = 0.01;

const COMMON_FRAME_RATES = [24000 / 1001, 24, 25, 30000 / 1001, 30] as const;

/** 1, and every ratio between two common frame rates (23.976, 24, 25, 29.97, 30), with near-duplicates merged. */
export function listCandidateFrameRateRatios(): number[] {
  const ratios = [1];
  for (const numerator of COMMON_FRAME_RATES) {
    for (const denominator of COMMON_FRAME_RATES) {
      const ratio = numerator / denominator;
      if (ratios.every((existing) => Math.abs(existing - ratio) > 1e-4)) ratios.push(ratio);
    }
  }
  return ratios.sort((left, right) => left - right);
}

/**
 * Finds `reference ≈ ratio · other + offset` by cross-correlating the two "some subtitle is showing" signals
 * (FFT over 1 s bins for every candidate ratio), then refines the offset to 50 ms on the exact intervals.
 *
 * @example
 * const estimate = estimateSubtitleTimeMap(englishCues, swedishCues);
 * estimate.offsetMilliseconds; // e.g. -30000 when the Swedish file runs 30 s late
 */
export function estimateSubtitleTimeMap(
  reference: readonly TimedSpan[],
  other: readonly TimedSpan[],
  options: TimeMapEstimateOptions = {},
): TimeMapEstimate {
  const maximumOffsetMilliseconds = options.maximumOffsetMilliseconds ?? 300_000;
  const binMilliseconds = options.binMilliseconds ?? 1_000;
  const referenceUnion = unionOfSpans(reference);
  const otherUnion = unionOfSpans(other);
  if (referenceUnion.length === 0 || otherUnion.length === 0) {
    return { frameRateRatio: 1, offsetMilliseconds: 0, score: 0, runnerUpScore: 0, alternativeOffsetsMilliseconds: [] };
  }
  const referenceSignal = rasterize(referenceUnion, 1, binMilliseconds);
  const referenceActive = totalDuration(referenceUnion);
  const maximumLag = Math.ceil(maximumOffsetMilliseconds / binMilliseconds);
  const ratios = options.candidateRatios ?? listCandidateFrameRateRatios();
  const lastOtherEnd = (otherUnion[otherUnion.length - 1] as TimedSpan).endMilliseconds;
  const longestOtherSignal = Math.ceil((lastOtherEnd * Math.max(...ratios)) / binMilliseconds) + 1;
  const correlateWith = createCrossCorrelator(referenceSignal, longestOtherSignal, maximumLag);
  // One buffer for the other track's signal at every ratio.
  const otherSignal = new Float64Array(longestOtherSignal);
  type Candidate = { ratio: number; lag: number; score: number; correlation: Float64Array; normalizer: number };
  const bestOfEachRatio: Candidate[] = [];
  for (const ratio of ratios) {
    const correlation = correlateWith(rasterize(otherUnion, ratio, binMilliseconds, otherSignal));
    const normalizer = Math.min(referenceActive, totalDuration(otherUnion) * ratio) / binMilliseconds;
    let topScore = -1;
    for (let index = 0; index < correlation.length; index += 1) topScore = Math.max(topScore, (correlation[index] as number) / normalizer);
    // Several offsets that fit equally (a strictly periodic track fits every whole period): the smallest one wins.
    let chosen: Candidate = { ratio, lag: 0, score: -1, correlation, normalizer };
    for (let index = 0; index < correlation.length; index += 1) {
      const score = (correlation[index] as number) / normalizer;
      const lag = index - maximumLag;
      if (score >= topScore * (1 - EQUAL_FIT_TOLERANCE) && (chosen.score < 0 || Math.abs(lag) < Math.abs(chosen.lag))) chosen = { ratio, lag, score, correlation, normalizer };
    }
    bestOfEachRatio.push(chosen);
  }
  // Likewise across frame rates: among ratios that fit equally well, the one closest to 1 (binning lets a wrong ratio
  // score a hair higher on a regular track).
  const topScore = Math.max(...bestOfEachRatio.map((candidate) => candidate.score));
  const best = bestOfEachRatio
    .filter((candidate) => candidate.score >= topScore * (1 - EQUAL_FIT_TOLERANCE))
    .sort((left, right) => Math.abs(left.ratio - 1) - Math.abs(right.ratio - 1) || Math.abs(left.lag) - Math.abs(right.lag))[0] as Candidate;
  const exclusionBins = Math.ceil(10_000 / binMilliseconds);
  const peakLags = [best.lag];
  const peakScores: number[] = [];
  const lagsByScore = Array.from(best.correlation.keys()).sort((left, right) => (best.correlation[right] as number) - (best.correlation[left] as number));
  for (const index of lagsByScore) {
    if (peakLags.length > 3) break;
    const lag = index - maximumLag;
    if (peakLags.every((peakLag) => Math.abs(peakLag - lag) > exclusionBins)) {
      peakLags.push(lag);
      peakScores.push((best.correlation[index] as number) / best.normalizer);
    }
  }
  const runnerUpScore = peakScores[0] ?? 0;

  const scaledOtherUnion = otherUnion.map((span) => ({ startMilliseconds: span.startMilliseconds * best.ratio, endMilliseconds: span.endMilliseconds * best.ratio }));
  const { shift: refinedOffset, overlap: refinedOverlap } = refineOffset(
    referenceUnion,
    scaledOtherUnion,
    best.lag * binMilliseconds - binMilliseconds * 1.5,
    best.lag * binMilliseconds + binMilliseconds * 1.5,
    best.lag * binMilliseconds,
  );
  const normalizerMilliseconds = Math.min(referenceActive, totalDuration(scaledOtherUnion));
  return {
    frameRateRatio: best.ratio,
    offsetMilliseconds: refinedOffset,
    score: normalizerMilliseconds === 0 ? 0 : refinedOverlap / normalizerMilliseconds,
    runnerUpScore: Math.min(runnerUpScore, 1),
    alternativeOffsetsMilliseconds: peakLags.slice(1).map((lag) => lag * binMilliseconds),
  };
}

/** The union's showing time per bin, on the clock scaled by `ratio`; written into the start of `into` when given. */
function rasterize(union: readonly TimedSpan[], ratio: number, binMilliseconds: number, into?: Float64Array): Float64Array {
  const last = union[union.length - 1] as TimedSpan;
  const binCount = Math.ceil((last.endMilliseconds * ratio) / binMilliseconds) + 1;
  const signal = into === undefined ? new Float64Array(binCount) : into.subarray(0, binCount).fill(0);
  for (const span of union) {
    const start = (span.startMilliseconds * ratio) / binMilliseconds;
    const end = (span.endMilliseconds * ratio) / binMilliseconds;
    for (let bin = Math.floor(start); bin < Math.ceil(end); bin += 1) {
      signal[bin] = (signal[bin] as number) + Math.min(end, bin + 1) - Math.max(start, bin);
    }
  }
  return signal;
}

/** The step of the offset's refinement on the exact intervals. */
const REFINEMENT_STEP_MILLISECONDS = 50;
/** Overlaps this close count as equal in the refinement, and then the smaller shift wins. */
const EQUAL_OVERLAP_TOLERANCE = 1e-9;

/**
 * The rule of the refinement, shift after shift in order: a greater overlap wins, an equal one (within
 * `EQUAL_OVERLAP_TOLERANCE` of the one kept so far) when its shift is smaller.
 */
function keepBestInOrder(shifts: readonly number[], overlaps: readonly number[], initialShift: number): { shift: number; overlap: number } {
  let shift = initialShift;
  let overlap = -1;
  for (let index = 0; index < shifts.length; index += 1) {
    const candidate = overlaps[index] as number;
    const candidateShift = shifts[index] as number;
    if (candidate > overlap + EQUAL_OVERLAP_TOLERANCE || (Math.abs(candidate - overlap) <= EQUAL_OVERLAP_TOLERANCE && Math.abs(candidateShift) < Math.abs(shift))) {
      overlap = candidate;
      shift = candidateShift;
    }
  }
  return { shift, overlap };
}

// A shift whose overlap is this far below the greatest cannot be kept, whatever the shifts near the top (see below).
const CONTENDER_MARGIN = 1e-4;
const CONTENDER_TOP_BAND = 1e-6;
const CONTENDER_GAP = 1e-7;

/**
 * The shift, every 50 ms from `firstShift` to `lastShift`, with the greatest overlap of the two unions, chosen as
 * `keepBestInOrder` over every shift's exact overlap would (same shift, same overlap to the bit) but without an exact
 * overlap for each of the 61 shifts: one scan gives every shift's overlap to within an allowance
 * (`createShiftedOverlapScanner`), and only the shifts that could come near the greatest are summed exactly.
 *
 * Why the choice is the same: let M be the greatest exact overlap. Every shift left out has an overlap below
 * M − CONTENDER_MARGIN. Among those summed, a threshold θ between M − 7·10⁻⁶ and M − 10⁻⁶ is found with no overlap in
 * [θ − CONTENDER_GAP, θ). In `keepBestInOrder`, the first shift at or over θ replaces whatever was kept (it is more than
 * the tolerance above it), and from then on nothing below θ − CONTENDER_GAP can replace the kept one (it is neither
 * greater nor within the tolerance). So the rule run over the shifts at or over θ alone keeps the same shift.
 */
export function refineOffset(reference: readonly TimedSpan[], other: readonly TimedSpan[], firstShift: number, lastShift: number, initialShift: number): { shift: number; overlap: number } {
  const shifts: number[] = [];
  for (let shift = firstShift; shift <= lastShift; shift += REFINEMENT_STEP_MILLISECONDS) shifts.push(shift);
  if (shifts.length === 0) return { shift: initialShift, overlap: -1 };
  const approximateOverlaps = new Float64Array(shifts.length);
  let allowance = createShiftedOverlapScanner([{ firstShift, count: shifts.length }], REFINEMENT_STEP_MILLISECONDS)(reference, other, approximateOverlaps);
  // The scan reads the shifts as firstShift + 50 · index, which a sum of 50s may miss by a rounding; the overlap moves
  // by at most one millisecond a millisecond of shift for each span edge.
  let largestDeviation = 0;
  shifts.forEach((shift, index) => (largestDeviation = Math.max(largestDeviation, Math.abs(shift - (firstShift + REFINEMENT_STEP_MILLISECONDS * index)))));
  allowance += 2 * (reference.length + other.length) * largestDeviation;
  let highestApproximate = Number.NEGATIVE_INFINITY;
  for (const approximate of approximateOverlaps) highestApproximate = Math.max(highestApproximate, approximate);
  // An exact overlap is within the allowance of its approximation, so the greatest, M, is at least the highest
  // approximation less the allowance, and a shift approximated below that less the allowance again is below M.
  const summedShifts = shifts.filter((_, index) => (approximateOverlaps[index] as number) >= highestApproximate - 2 * allowance - CONTENDER_MARGIN);
  const summedOverlaps = summedShifts.map((shift) => overlapOfUnions(reference, other, shift));
  const greatest = Math.max(...summedOverlaps);
  let threshold = greatest - CONTENDER_TOP_BAND;
  for (const overlap of [...summedOverlaps].sort((left, right) => right - left)) {
    if (overlap >= threshold) continue;
    if (overlap < threshold - CONTENDER_GAP) break;
    threshold = overlap;
  }
  const isContender = (_: number, index: number) => (summedOverlaps[index] as number) >= threshold;
  return keepBestInOrder(summedShifts.filter(isContender), summedOverlaps.filter(isContender), initialShift);
}
