import { describe, expect, it } from "vitest";
import { formatPriceCHF } from "./index.ts";

// ICU data differ: Node 20 groups thousands with "'" (U+0027), newer CLDR data with "’" (U+2019).
const GROUPING_MARK = "['’]";

describe("given a price in Swiss francs", () => {
  it("should format it the Swiss German way with two decimals, as Node's ICU prints it", () => {
    expect(formatPriceCHF(2750)).toMatch(new RegExp(`^CHF\\u00a02${GROUPING_MARK}750\\.00$`));
  });

  it("should keep at most two decimals", () => {
    expect(formatPriceCHF(3450.456)).toMatch(new RegExp(`^CHF\\u00a03${GROUPING_MARK}450\\.46$`));
  });

  it("should format small amounts without a grouping mark", () => {
    expect(formatPriceCHF(950)).toBe("CHF\u00a0950.00");
  });
});

describe("given a formatter that throws", () => {
  it("should fall back to 'CHF ' plus two decimals", () => {
    const failingFormatter = () => {
      throw new RangeError("Incorrect locale information provided");
    };
    expect(formatPriceCHF(2750, failingFormatter)).toBe("CHF 2750.00");
  });
});
