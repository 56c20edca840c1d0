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

/** Total time during which both unions show something, with the other union shifted by `shiftMilliseconds`. */
export function overlapOfUnions(reference: readonly TimedSpan[], other: readonly TimedSpan[], shiftMilliseconds: number): number {
  let total = 0;
  let otherIndex = 0;
  for (const span of reference) {
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
