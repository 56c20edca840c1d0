import { unionOfSpans, type TimedSpan } from "../timed-span.ts";

/**
 * A film-like union: spans of 0.9–4.9 s with gaps of 0.1–3.1 s, from a fixed linear congruential sequence, its times
 * multiplied by `stretch` and each span moved by up to ± half of `jitterMilliseconds` (none by default).
 */
export function irregularUnion(count: number, seed: number, startMilliseconds: number, stretch: number, jitterMilliseconds = 0): TimedSpan[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const spans: TimedSpan[] = [];
  let time = startMilliseconds;
  for (let index = 0; index < count; index += 1) {
    const duration = 900 + next() * 4_000;
    const jitter = jitterMilliseconds === 0 ? 0 : (next() - 0.5) * jitterMilliseconds;
    spans.push({ startMilliseconds: (time + jitter) * stretch, endMilliseconds: (time + jitter + duration) * stretch });
    time += duration + 100 + next() * 3_000;
  }
  return unionOfSpans(spans);
}
