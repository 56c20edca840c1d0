import { describe, expect, it } from "vitest";
import { refineOffset } from "./estimate-subtitle-time-map.ts";
import { irregularUnion } from "./test-support/irregular-union.ts";
import { overlapOfUnions, type TimedSpan } from "./timed-span.ts";

/** The refinement as `estimateSubtitleTimeMap` first wrote it, every shift's overlap summed: what `refineOffset` must choose. */
function refineOffsetShiftByShift(reference: readonly TimedSpan[], other: readonly TimedSpan[], firstShift: number, lastShift: number, initialShift: number): { shift: number; overlap: number } {
  let refinedOffset = initialShift;
  let refinedOverlap = -1;
  for (let shift = firstShift; shift <= lastShift; shift += 50) {
    const overlap = overlapOfUnions(reference, other, shift);
    if (overlap > refinedOverlap + 1e-9 || (Math.abs(overlap - refinedOverlap) <= 1e-9 && Math.abs(shift) < Math.abs(refinedOffset))) {
      refinedOverlap = overlap;
      refinedOffset = shift;
    }
  }
  return { shift: refinedOffset, overlap: refinedOverlap };
}

function copyShifted(union: readonly TimedSpan[], shiftMilliseconds: number): TimedSpan[] {
  return union.map((span) => ({ startMilliseconds: span.startMilliseconds + shiftMilliseconds, endMilliseconds: span.endMilliseconds + shiftMilliseconds }));
}

describe("given the offset's refinement around a correlation peak", () => {
  it("should keep the shift and the overlap that summing every shift's overlap keeps, on film-like tracks of every size", () => {
    for (const [count, seed, stretch, jitter] of [
      [5, 3, 1, 0],
      [40, 11, 1, 300],
      [400, 17, 1.0427083333, 300],
      [3_000, 23, 25 / 23.976, 150],
      [3_000, 29, 1, 0],
    ] as const) {
      const reference = irregularUnion(count, seed, 60_000, 1);
      const other = copyShifted(irregularUnion(count, seed, 60_000, stretch, jitter), -15_250);
      // The peak inside the window, at its edge, and a window that holds no peak at all.
      for (const center of [15_000, 16_000, 13_000, 90_000, 0]) {
        const window = [center - 1_500, center + 1_500, center] as const;
        expect(refineOffset(reference, other, ...window)).toEqual(refineOffsetShiftByShift(reference, other, ...window));
      }
    }
  });

  it("should keep the smaller shift among equal overlaps, and the first of two equally small ones", () => {
    // Spans of 1 s every 2 s, against its copy: the overlap repeats every 2 s, so ±2 s fit as well as 0.
    const periodic = Array.from({ length: 30 }, (_, index) => ({ startMilliseconds: index * 2_000, endMilliseconds: index * 2_000 + 1_000 }));
    const longerOther = Array.from({ length: 40 }, (_, index) => ({ startMilliseconds: index * 2_000 - 20_000, endMilliseconds: index * 2_000 - 19_000 }));
    expect(refineOffset(periodic, longerOther, -2_500, 2_500, 0)).toEqual({ shift: 0, overlap: 30_000 });
    // One span against two equal ones at ±300 ms: −300 and +300 tie, and the first one met is kept.
    const single = [{ startMilliseconds: 10_000, endMilliseconds: 10_100 }];
    const twins = [
      { startMilliseconds: 9_700, endMilliseconds: 9_800 },
      { startMilliseconds: 10_300, endMilliseconds: 10_400 },
    ];
    expect(refineOffset(single, twins, -1_500, 1_500, 0)).toEqual({ shift: -300, overlap: 100 });
    expect(refineOffset(single, twins, -1_500, 1_500, 0)).toEqual(refineOffsetShiftByShift(single, twins, -1_500, 1_500, 0));
  });

  it("should count overlaps within 10⁻⁹ ms of each other as equal, as summing every shift does, so that the smaller shift wins", () => {
    // At −50 ms the spans are 25 ms − 2.5·10⁻¹⁰ apart, at 0 ms 25 ms + 2.5·10⁻¹⁰: −50 overlaps a hair more, but not by more than the tolerance.
    const reference = [{ startMilliseconds: 0, endMilliseconds: 100 }];
    const other = [{ startMilliseconds: 25 + 2.5e-10, endMilliseconds: 125 + 2.5e-10 }];
    const refined = refineOffset(reference, other, -1_500, 1_500, 0);
    expect(refined.shift).toBe(0);
    expect(refined).toEqual(refineOffsetShiftByShift(reference, other, -1_500, 1_500, 0));
  });

  it("should keep the same shift from a first shift with a fraction of a millisecond", () => {
    const reference = irregularUnion(60, 5, 1_000, 1);
    const other = copyShifted(irregularUnion(60, 5, 1_000, 1.001, 200), 2_000.1);
    expect(refineOffset(reference, other, 500.1, 3_500.1, 2_000.1)).toEqual(refineOffsetShiftByShift(reference, other, 500.1, 3_500.1, 2_000.1));
  });
});
