// @vitest-environment node
import { describe, expect, it } from "vitest";
import { computeVisiblePageNumbers } from "./compute-visible-page-numbers";

describe("given ten pages and the default window of five", () => {
  it("should start at page 1 when on the first pages", () => {
    expect(computeVisiblePageNumbers(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(computeVisiblePageNumbers(2, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(computeVisiblePageNumbers(3, 10)).toEqual([1, 2, 3, 4, 5]);
  });

  it("should centre the window on the current page in the middle", () => {
    expect(computeVisiblePageNumbers(4, 10)).toEqual([2, 3, 4, 5, 6]);
    expect(computeVisiblePageNumbers(6, 10)).toEqual([4, 5, 6, 7, 8]);
  });

  it("should end at the last page when on the last pages", () => {
    expect(computeVisiblePageNumbers(8, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(computeVisiblePageNumbers(9, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(computeVisiblePageNumbers(10, 10)).toEqual([6, 7, 8, 9, 10]);
  });

  it("should never show more than five pages, and always include the current one", () => {
    for (let currentPage = 1; currentPage <= 10; currentPage += 1) {
      const visiblePages = computeVisiblePageNumbers(currentPage, 10);
      expect(visiblePages).toHaveLength(5);
      expect(visiblePages).toContain(currentPage);
    }
  });
});

describe("given fewer pages than the window", () => {
  it("should show every page", () => {
    expect(computeVisiblePageNumbers(1, 1)).toEqual([1]);
    expect(computeVisiblePageNumbers(2, 3)).toEqual([1, 2, 3]);
    expect(computeVisiblePageNumbers(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it("should show nothing when there are no pages", () => {
    expect(computeVisiblePageNumbers(1, 0)).toEqual([]);
  });
});

describe("given a custom window size", () => {
  it("should put the extra page of an even window after the current page", () => {
    expect(computeVisiblePageNumbers(5, 10, 4)).toEqual([4, 5, 6, 7]);
  });

  it("should show only the current page with a window of one", () => {
    expect(computeVisiblePageNumbers(7, 10, 1)).toEqual([7]);
  });

  it("should allow a window of seven", () => {
    expect(computeVisiblePageNumbers(2, 20, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(computeVisiblePageNumbers(10, 20, 7)).toEqual([7, 8, 9, 10, 11, 12, 13]);
  });
});

describe("given a current page out of range", () => {
  it("should clamp it to the first or last page", () => {
    expect(computeVisiblePageNumbers(0, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(computeVisiblePageNumbers(99, 10)).toEqual([6, 7, 8, 9, 10]);
  });
});

describe("given a value that is not a whole number", () => {
  it("should throw a RangeError naming the argument", () => {
    expect(() => computeVisiblePageNumbers(Number.NaN, 10)).toThrow(/currentPage = NaN/);
    expect(() => computeVisiblePageNumbers(1, 2.5)).toThrow(RangeError);
  });
});
