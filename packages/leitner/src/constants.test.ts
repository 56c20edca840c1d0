import { describe, expect, it } from "vitest";
import {
  ANONYMOUS_MEMORIZED_CARD_LIMIT,
  CARD_COUNT_OPTIONS,
  DEFAULT_PREVIEW_PAGE_SIZE,
  DEFAULT_SESSION_CONFIG,
  DEFAULT_SETUP,
  MEMORIZED_BOX,
  PREVIEW_PAGE_SIZES,
  REVIEW_INTERVAL_DAYS_BY_BOX,
  REVIEW_OPTIONS,
} from "./constants.ts";

describe("the business constants of spec §9", () => {
  it("make box 5 memorized and the anonymous limit 5 cards", () => {
    expect(MEMORIZED_BOX).toBe(5);
    expect(ANONYMOUS_MEMORIZED_CARD_LIMIT).toBe(5);
  });

  it("default a session to study, all cards, 20 of them", () => {
    expect(DEFAULT_SESSION_CONFIG).toEqual({ mode: "study", range: "all", cardCount: 20 });
  });

  it("default the setup to new cards, 5 of them, and a preview page of 10", () => {
    expect(DEFAULT_SETUP).toEqual({ range: "new", cardCount: 5, previewPageSize: 10 });
    expect(DEFAULT_PREVIEW_PAGE_SIZE).toBe(10);
  });

  it("list the card-count, review and preview page-size options", () => {
    expect(CARD_COUNT_OPTIONS).toEqual([5, 10, 20, 30, 50, 100, 250]);
    expect(REVIEW_OPTIONS).toEqual([5, 10, 15, 20]);
    expect(PREVIEW_PAGE_SIZES).toEqual([5, 10, 20, 50]);
  });

  it("schedule boxes 1 to 5 after 0, 1, 3, 7 and 30 days", () => {
    expect(REVIEW_INTERVAL_DAYS_BY_BOX).toEqual({ 1: 0, 2: 1, 3: 3, 4: 7, 5: 30 });
  });
});
