import { describe, expect, it } from "vitest";
import { HEADER_ALWAYS_VISIBLE_ABOVE_PIXELS, nextHeaderVisibility } from "./use-header-visibility.ts";

describe("nextHeaderVisibility", () => {
  it("should hide the header when scrolling down", () => {
    expect(nextHeaderVisibility("visible", 200, 260)).toBe("hidden");
  });

  it("should show the header when scrolling up", () => {
    expect(nextHeaderVisibility("hidden", 600, 500)).toBe("visible");
  });

  it("should ignore movements within the tolerance", () => {
    expect(nextHeaderVisibility("hidden", 600, 597)).toBe("hidden");
    expect(nextHeaderVisibility("visible", 600, 603)).toBe("visible");
  });

  it("should always show the header near the top of the page", () => {
    expect(nextHeaderVisibility("hidden", 10, HEADER_ALWAYS_VISIBLE_ABOVE_PIXELS)).toBe("visible");
  });
});
