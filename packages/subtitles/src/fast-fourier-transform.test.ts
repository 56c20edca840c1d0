import { describe, expect, it } from "vitest";
import { createCrossCorrelator, crossCorrelate, transformInPlace } from "./fast-fourier-transform.ts";

/** The textbook iterative radix-2 loop, twiddles by recurrence: the bits the planned, two-stages-a-pass transform must give. */
function transformTextbook(real: Float64Array, imaginary: Float64Array, inverse: boolean): void {
  const length = real.length;
  for (let index = 1, reversed = 0; index < length; index += 1) {
    let bit = length >> 1;
    for (; reversed & bit; bit >>= 1) reversed ^= bit;
    reversed ^= bit;
    if (index < reversed) {
      [real[index], real[reversed]] = [real[reversed] as number, real[index] as number];
      [imaginary[index], imaginary[reversed]] = [imaginary[reversed] as number, imaginary[index] as number];
    }
  }
  for (let size = 2; size <= length; size <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / size;
    const stepReal = Math.cos(angle);
    const stepImaginary = Math.sin(angle);
    for (let start = 0; start < length; start += size) {
      let twiddleReal = 1;
      let twiddleImaginary = 0;
      for (let offset = 0; offset < size / 2; offset += 1) {
        const even = start + offset;
        const odd = even + size / 2;
        const oddReal = (real[odd] as number) * twiddleReal - (imaginary[odd] as number) * twiddleImaginary;
        const oddImaginary = (real[odd] as number) * twiddleImaginary + (imaginary[odd] as number) * twiddleReal;
        real[odd] = (real[even] as number) - oddReal;
        imaginary[odd] = (imaginary[even] as number) - oddImaginary;
        real[even] = (real[even] as number) + oddReal;
        imaginary[even] = (imaginary[even] as number) + oddImaginary;
        const nextTwiddleReal = twiddleReal * stepReal - twiddleImaginary * stepImaginary;
        twiddleImaginary = twiddleReal * stepImaginary + twiddleImaginary * stepReal;
        twiddleReal = nextTwiddleReal;
      }
    }
  }
  if (inverse) {
    for (let index = 0; index < length; index += 1) {
      real[index] = (real[index] as number) / length;
      imaginary[index] = (imaginary[index] as number) / length;
    }
  }
}

/** A fixed, irregular signal (no Math.random: a failure must be repeatable). */
function signal(length: number, seed: number): Float64Array {
  return Float64Array.from({ length }, (_, index) => Math.sin(index * 0.731 + seed) * Math.cos(index * 0.113 * seed) + (index % 7 === 0 ? 1 : 0));
}

describe("given two short signals", () => {
  it("should match a direct cross-correlation at every lag", () => {
    const reference = Float64Array.from({ length: 50 }, (_, index) => Math.sin(index) + 1);
    const other = Float64Array.from({ length: 40 }, (_, index) => Math.cos(index * 0.7) + 1);
    const result = crossCorrelate(reference, other, 10);
    for (let lag = -10; lag <= 10; lag += 1) {
      let direct = 0;
      other.forEach((value, index) => (direct += (reference[index + lag] ?? 0) * value));
      expect(result[lag + 10]).toBeCloseTo(direct, 8);
    }
  });
});

describe("given signals of every power-of-two length up to 4,096", () => {
  it("should transform them to the same bits as the textbook loop, both ways (odd and even stage counts)", () => {
    for (let length = 1; length <= 4_096; length *= 2) {
      for (const inverse of [false, true]) {
        const [real, imaginary] = [signal(length, 1), signal(length, 2)];
        const [expectedReal, expectedImaginary] = [real.slice(), imaginary.slice()];
        transformInPlace(real, imaginary, inverse);
        transformTextbook(expectedReal, expectedImaginary, inverse);
        expect([length, inverse, Array.from(real), Array.from(imaginary)]).toEqual([length, inverse, Array.from(expectedReal), Array.from(expectedImaginary)]);
      }
    }
  });

  it("should match a direct correlation at each kept lag, however few lags are kept and whatever the lengths' parity", () => {
    for (const [referenceLength, otherLength] of [[3_000, 2_500], [2_999, 2_501], [1, 1], [2, 3], [5, 4]] as const) {
      const reference = signal(referenceLength, 3);
      const other = signal(otherLength, 4);
      for (const maximumLag of [0, 1, 2, 37, 300]) {
        const correlateWith = createCrossCorrelator(reference, otherLength, maximumLag);
        // Twice: the correlator reuses its work arrays between calls.
        for (const result of [correlateWith(other), correlateWith(other)]) {
          expect(result.length).toBe(2 * maximumLag + 1);
          for (let lag = -maximumLag; lag <= maximumLag; lag += 1) {
            let direct = 0;
            other.forEach((value, index) => (direct += (reference[index + lag] ?? 0) * value));
            // The transforms' rounding grows with the signals' length: far below a subtitle bin's share of a second.
            expect(Math.abs((result[lag + maximumLag] as number) - direct), `lengths ${referenceLength}/${otherLength}, lag ${lag} of ${maximumLag}`).toBeLessThan(1e-9);
          }
        }
      }
    }
  });

  it("should correlate a signal shorter than it was prepared for as if zero-padded", () => {
    const reference = signal(100, 5);
    const correlateWith = createCrossCorrelator(reference, 80, 10);
    expect(Array.from(correlateWith(signal(30, 6)))).toEqual(Array.from(createCrossCorrelator(reference, 80, 10)(Float64Array.from([...signal(30, 6), ...new Float64Array(50)]))));
    expect(() => correlateWith(signal(81, 6))).toThrow(/longer signal/);
  });
});
