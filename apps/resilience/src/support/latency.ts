/**
 * The value below which `percent` % of the samples fall (nearest rank); `NaN` without samples.
 *
 * @example
 * percentile([5, 1, 3], 50); // 3
 */
export function percentile(samples: readonly number[], percent: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((first, second) => first - second);
  const rank = Math.ceil((percent / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1]!;
}

/** Milliseconds rounded to a tenth, for printing and for the results file. */
export function roundMilliseconds(milliseconds: number): number {
  return Math.round(milliseconds * 10) / 10;
}
