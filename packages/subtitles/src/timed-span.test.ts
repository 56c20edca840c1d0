import { describe, expect, it } from "vitest";
import { irregularUnion } from "./test-support/irregular-union.ts";
import { createShiftedOverlapScanner, firstSpanEndingAfter, overlapOfUnions, type TimedSpan } from "./timed-span.ts";

describe("given a span and its copy", () => {
  it("should scan the overlap at each shift as a trapezoid", () => {
    const scan = createShiftedOverlapScanner([{ firstShift: -1_500, count: 7 }], 500);
    const overlaps = new Float64Array(7);
    scan([{ startMilliseconds: 0, endMilliseconds: 1_000 }], [{ startMilliseconds: 0, endMilliseconds: 1_000 }], overlaps);
    [0, 0, 500, 1_000, 500, 0, 0].forEach((expected, index) => expect(overlaps[index]).toBeCloseTo(expected, 9));
  });
});

describe("given two irregular unions at fractional times", () => {
  const reference = irregularUnion(40, 11, 1_000_000, 1);
  const other = irregularUnion(80, 11, 800_000, 1.0427083333);
  const runs = [
    { firstShift: -20_000, count: 201 },
    { firstShift: 70_800, count: 21 },
  ];

  it("should scan each shift's overlap to within the allowance of overlapOfUnions's, in run order", () => {
    const overlaps = new Float64Array(222);
    const allowance = createShiftedOverlapScanner(runs, 200)(reference, other, overlaps);
    expect(allowance).toBeGreaterThan(0);
    expect(allowance).toBeLessThan(0.01);
    const shifts = runs.flatMap(({ firstShift, count }) => Array.from({ length: count }, (_, index) => firstShift + index * 200));
    shifts.forEach((shift, index) => expect(Math.abs((overlaps[index] as number) - overlapOfUnions(reference, other, shift))).toBeLessThanOrEqual(allowance));
  });

  it("should give overlapOfUnions's exact sum when told where the other union can start", () => {
    const from = firstSpanEndingAfter(other, (reference[0] as TimedSpan).startMilliseconds - 20_000);
    expect(from).toBeGreaterThan(0);
    for (let shift = -20_000; shift <= 20_000; shift += 1_000) expect(overlapOfUnions(reference, other, shift, from)).toBe(overlapOfUnions(reference, other, shift));
  });
});
