import { describe, expect, it } from "vitest";
import { createSeededRandom } from "./seeded-random.ts";

describe("given a seed", () => {
  it("should give the same numbers in [0, 1) for the same seed, and others for another", () => {
    const first = Array.from({ length: 5 }, createSeededRandom(42));
    const again = Array.from({ length: 5 }, createSeededRandom(42));
    const other = Array.from({ length: 5 }, createSeededRandom(43));
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(first.every((value) => value >= 0 && value < 1)).toBe(true);
  });
});
