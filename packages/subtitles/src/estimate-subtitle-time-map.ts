import { createCrossCorrelator } from "./fast-fourier-transform.ts";
import { overlapOfUnions, totalDuration, unionOfSpans, type SubtitleTimeMap, type TimedSpan } from "./timed-span.ts";

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
  let refinedOffset = best.lag * binMilliseconds;
  let refinedOverlap = -1;
  for (let shift = best.lag * binMilliseconds - binMilliseconds * 1.5; shift <= best.lag * binMilliseconds + binMilliseconds * 1.5; shift += 50) {
    const overlap = overlapOfUnions(referenceUnion, scaledOtherUnion, shift);
    // Equal overlaps: the smaller shift.
    if (overlap > refinedOverlap + 1e-9 || (Math.abs(overlap - refinedOverlap) <= 1e-9 && Math.abs(shift) < Math.abs(refinedOffset))) {
      refinedOverlap = overlap;
      refinedOffset = shift;
    }
  }
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
