/**
 * The same pseudo-random numbers in [0, 1) on every run (mulberry32), so that a bench's generated input is the same
 * from run to run and figures compare.
 *
 * @example
 * const random = createSeededRandom(20261124);
 * const jitterMilliseconds = Math.round(random() * 80);
 */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
