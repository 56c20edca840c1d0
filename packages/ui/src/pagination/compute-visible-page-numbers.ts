/**
 * The page numbers to show as buttons: at most `maximumVisible`, a window centred on `currentPage`
 * that shifts instead of shrinking at either end. A `currentPage` outside 1…pageCount is clamped.
 *
 * @example
 * computeVisiblePageNumbers(1, 10); // [1, 2, 3, 4, 5]
 * computeVisiblePageNumbers(6, 10); // [4, 5, 6, 7, 8]
 * computeVisiblePageNumbers(10, 10); // [6, 7, 8, 9, 10]
 */
export function computeVisiblePageNumbers(currentPage: number, pageCount: number, maximumVisible = 5): number[] {
  for (const [argumentName, argumentValue] of [
    ["currentPage", currentPage],
    ["pageCount", pageCount],
    ["maximumVisible", maximumVisible],
  ] as const) {
    if (!Number.isInteger(argumentValue)) {
      throw new RangeError(
        `computeVisiblePageNumbers received ${argumentName} = ${argumentValue}; pass whole numbers (parse and validate a page taken from the URL before rendering).`,
      );
    }
  }
  if (pageCount < 1 || maximumVisible < 1) return [];

  const visibleCount = Math.min(maximumVisible, pageCount);
  const clampedCurrentPage = Math.min(Math.max(currentPage, 1), pageCount);
  const centredFirstPage = clampedCurrentPage - Math.floor((visibleCount - 1) / 2);
  const firstPage = Math.min(Math.max(centredFirstPage, 1), pageCount - visibleCount + 1);
  return Array.from({ length: visibleCount }, (_, offset) => firstPage + offset);
}
