import { describe, expect, it } from "vitest";
import { crossCorrelate } from "./fast-fourier-transform.ts";

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
