import { describe, expect, it } from "vitest";
import { percentile, roundMilliseconds } from "./latency.ts";

describe("given latency samples", () => {
  it("should take the nearest rank, whatever the order", () => {
    expect(percentile([5, 1, 3], 50)).toBe(3);
    expect(percentile([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 50)).toBe(50);
    expect(percentile([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 99)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });

  it("should answer NaN without samples", () => {
    expect(percentile([], 50)).toBeNaN();
  });

  it("should round milliseconds to a tenth", () => {
    expect(roundMilliseconds(12.345)).toBe(12.3);
  });
});
