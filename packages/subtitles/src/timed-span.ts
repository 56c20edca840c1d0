/** Anything with a start and an end in milliseconds: cues, sentences, merged groups. */
export interface TimedSpan {
  startMilliseconds: number;
  endMilliseconds: number;
}

/**
 * A map from the other track's clock to the reference track's clock: `reference ≈ ratio · other + offset`, optionally
 * corrected piecewise after a splice (`corrections` are extra milliseconds at sorted times of the other track).
 */
export interface SubtitleTimeMap {
  frameRateRatio: number;
  offsetMilliseconds: number;
  piecewiseCorrections?: { otherMilliseconds: number; correctionMilliseconds: number }[];
}

export function mapTime(timeMap: SubtitleTimeMap, otherMilliseconds: number): number {
  const linear = timeMap.frameRateRatio * otherMilliseconds + timeMap.offsetMilliseconds;
  const corrections = timeMap.piecewiseCorrections;
  if (corrections === undefined || corrections.length === 0) return linear;
  return linear + interpolateCorrection(corrections, otherMilliseconds);
}

function interpolateCorrection(corrections: NonNullable<SubtitleTimeMap["piecewiseCorrections"]>, at: number): number {
  const first = corrections[0] as (typeof corrections)[number];
  const last = corrections[corrections.length - 1] as (typeof corrections)[number];
  if (at <= first.otherMilliseconds) return first.correctionMilliseconds;
  if (at >= last.otherMilliseconds) return last.correctionMilliseconds;
  let low = 0;
  let high = corrections.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if ((corrections[middle] as (typeof corrections)[number]).otherMilliseconds <= at) low = middle;
    else high = middle;
  }
  const left = corrections[low] as (typeof corrections)[number];
  const right = corrections[high] as (typeof corrections)[number];
  const span = right.otherMilliseconds - left.otherMilliseconds;
  const fraction = span === 0 ? 0 : (at - left.otherMilliseconds) / span;
  return left.correctionMilliseconds + fraction * (right.correctionMilliseconds - left.correctionMilliseconds);
}

/** Sorted, disjoint intervals covering every moment at which at least one span is showing. */
export function unionOfSpans(spans: readonly TimedSpan[]): TimedSpan[] {
  const sorted = spans.filter((span) => span.endMilliseconds > span.startMilliseconds).sort((left, right) => left.startMilliseconds - right.startMilliseconds);
  const union: TimedSpan[] = [];
  for (const span of sorted) {
    const last = union.at(-1);
    if (last !== undefined && span.startMilliseconds <= last.endMilliseconds) {
      last.endMilliseconds = Math.max(last.endMilliseconds, span.endMilliseconds);
    } else {
      union.push({ startMilliseconds: span.startMilliseconds, endMilliseconds: span.endMilliseconds });
    }
  }
  return union;
}

/**
 * Total time during which both unions show something, with the other union shifted by `shiftMilliseconds`. The other
 * union is read from `otherFrom` on: its spans before that must end before the reference starts, once shifted.
 */
export function overlapOfUnions(reference: readonly TimedSpan[], other: readonly TimedSpan[], shiftMilliseconds: number, otherFrom = 0): number {
  let total = 0;
  let otherIndex = otherFrom;
  for (let referenceIndex = 0; referenceIndex < reference.length; referenceIndex += 1) {
    const span = reference[referenceIndex] as TimedSpan;
    while (otherIndex < other.length && (other[otherIndex] as TimedSpan).endMilliseconds + shiftMilliseconds <= span.startMilliseconds) otherIndex += 1;
    for (let index = otherIndex; index < other.length; index += 1) {
      const candidate = other[index] as TimedSpan;
      const start = candidate.startMilliseconds + shiftMilliseconds;
      if (start >= span.endMilliseconds) break;
      total += Math.min(span.endMilliseconds, candidate.endMilliseconds + shiftMilliseconds) - Math.max(span.startMilliseconds, start);
    }
  }
  return total;
}

/** The index of the first span of a union (sorted, disjoint) that ends after `time`, or the union's length. */
export function firstSpanEndingAfter(union: readonly TimedSpan[], time: number): number {
  let low = 0;
  let high = union.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((union[middle] as TimedSpan).endMilliseconds <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Shifts `firstShift`, `firstShift + step`, … (`count` of them). */
export interface ShiftRun {
  firstShift: number;
  count: number;
}

/**
 * Prepares `overlapOfUnions(reference, other, shift)` for every shift of the runs at once, written into `overlaps` in
 * run order. As a function of the shift, the overlap of two spans is a trapezoid, that is four ramps; summing the
 * ramps of every span pair on a run's grid costs the pairs plus the shifts, where calling `overlapOfUnions` per shift
 * costs both multiplied. The sums run in another order, so a value may differ from `overlapOfUnions`'s in its last
 * bits: the scan returns an allowance that bounds the difference (generously, both sides' rounding).
 *
 * @example
 * const scan = createShiftedOverlapScanner([{ firstShift: -500, count: 3 }], 500);
 * const overlaps = new Float64Array(3);
 * scan([{ startMilliseconds: 0, endMilliseconds: 1000 }], [{ startMilliseconds: 0, endMilliseconds: 1000 }], overlaps);
 * overlaps; // Float64Array [500, 1000, 500]
 */
export function createShiftedOverlapScanner(
  shiftRuns: readonly ShiftRun[],
  shiftStep: number,
): (reference: readonly TimedSpan[], other: readonly TimedSpan[], overlaps: Float64Array) => number {
  const longestRun = Math.max(0, ...shiftRuns.map((run) => run.count));
  // Per grid point, the slopes and the slope-weighted positions of the ramps that start there; their running sums
  // give the overlap at each shift s as s · Σ slope − Σ slope · position.
  const slopeChanges = new Float64Array(longestRun);
  const weightedChanges = new Float64Array(longestRun);
  return (reference, other, overlaps) => {
    let allowance = 0;
    let runOffset = 0;
    for (let runIndex = 0; runIndex < shiftRuns.length; runIndex += 1) {
      const { firstShift, count } = shiftRuns[runIndex] as ShiftRun;
      const lastShift = firstShift + shiftStep * (count - 1);
      slopeChanges.fill(0);
      weightedChanges.fill(0);
      let rampCount = 0;
      let largestTime = 0;
      let referenceTotal = 0;
      // Only pairs whose trapezoid (shifts from reference start − other end to reference end − other start) meets the
      // run's shifts: the other spans from the first that ends after the first reference start − the last shift.
      let otherFrom = reference.length === 0 ? other.length : firstSpanEndingAfter(other, (reference[0] as TimedSpan).startMilliseconds - lastShift);
      for (let referenceIndex = 0; referenceIndex < reference.length; referenceIndex += 1) {
        const referenceStart = (reference[referenceIndex] as TimedSpan).startMilliseconds;
        const referenceEnd = (reference[referenceIndex] as TimedSpan).endMilliseconds;
        largestTime = Math.max(largestTime, Math.abs(referenceStart), Math.abs(referenceEnd));
        referenceTotal += referenceEnd - referenceStart;
        while (otherFrom < other.length && (other[otherFrom] as TimedSpan).endMilliseconds <= referenceStart - lastShift) otherFrom += 1;
        for (let index = otherFrom; index < other.length; index += 1) {
          const otherStart = (other[index] as TimedSpan).startMilliseconds;
          const otherEnd = (other[index] as TimedSpan).endMilliseconds;
          if (otherStart >= referenceEnd - firstShift) break;
          largestTime = Math.max(largestTime, Math.abs(otherStart), Math.abs(otherEnd));
          // The trapezoid as four ramps: up from start − other end, down from start − other start and from end − other
          // end, and up again from end − other start, where it is back at zero.
          rampCount += addRamp(slopeChanges, weightedChanges, firstShift, lastShift, shiftStep, referenceStart - otherEnd, 1);
          rampCount += addRamp(slopeChanges, weightedChanges, firstShift, lastShift, shiftStep, referenceStart - otherStart, -1);
          rampCount += addRamp(slopeChanges, weightedChanges, firstShift, lastShift, shiftStep, referenceEnd - otherEnd, -1);
          rampCount += addRamp(slopeChanges, weightedChanges, firstShift, lastShift, shiftStep, referenceEnd - otherStart, 1);
        }
      }
      let slope = 0;
      let weighted = 0;
      for (let index = 0; index < count; index += 1) {
        slope += slopeChanges[index] as number;
        weighted += weightedChanges[index] as number;
        overlaps[runOffset + index] = (firstShift + shiftStep * index) * slope - weighted;
      }
      runOffset += count;
      // A ramp's position is a difference of two times, so at most twice the largest time.
      const terms = rampCount + reference.length + 1;
      allowance += 4 * Number.EPSILON * terms * terms * (3 * largestTime + Math.abs(firstShift) + Math.abs(lastShift) + referenceTotal);
    }
    return allowance;
  };
}

/** One ramp of slope `slope` from `position` on, onto the grid; 1 when it reaches the grid, else 0. */
function addRamp(slopeChanges: Float64Array, weightedChanges: Float64Array, firstShift: number, lastShift: number, shiftStep: number, position: number, slope: number): number {
  if (position >= lastShift) return 0;
  const index = position <= firstShift ? 0 : Math.ceil((position - firstShift) / shiftStep);
  slopeChanges[index] = (slopeChanges[index] as number) + slope;
  weightedChanges[index] = (weightedChanges[index] as number) + slope * position;
  return 1;
}

export function totalDuration(union: readonly TimedSpan[]): number {
  return union.reduce((sum, span) => sum + span.endMilliseconds - span.startMilliseconds, 0);
}

/** Temporal intersection over union of two spans, in [0, 1]. */
export function temporalIntersectionOverUnion(left: TimedSpan, right: TimedSpan): number {
  const intersection = Math.min(left.endMilliseconds, right.endMilliseconds) - Math.max(left.startMilliseconds, right.startMilliseconds);
  if (intersection <= 0) return 0;
  const union = Math.max(left.endMilliseconds, right.endMilliseconds) - Math.min(left.startMilliseconds, right.startMilliseconds);
  return intersection / union;
}
