import { describe, expect, it } from "vitest";
import { scorePairConfidence } from "./pair-confidence.ts";

describe("scorePairConfidence", () => {
  it("should be high for a well-timed pair of fitting length and the same closing mark", () => {
    expect(scorePairConfidence({ english: "Where are you?", swedish: "Var är du?", overlap: 0.9 })).toBe(0.94);
  });

  it("should fall with the time overlap", () => {
    const good = scorePairConfidence({ english: "Come here.", swedish: "Kom hit.", overlap: 0.9 });
    const poor = scorePairConfidence({ english: "Come here.", swedish: "Kom hit.", overlap: 0.3 });
    expect(poor).toBeLessThan(good);
    expect(poor).toBeLessThan(0.75);
  });

  it("should count against a pair whose lengths do not fit a translation, or whose marks differ", () => {
    const fitting = scorePairConfidence({ english: "Sit up straight, please.", swedish: "Sitt rakt, tack.", overlap: 0.8 });
    expect(scorePairConfidence({ english: "Sit up straight, please, and listen to me now.", swedish: "Sitt.", overlap: 0.8 })).toBeLessThan(fitting);
    expect(scorePairConfidence({ english: "Sit up straight, please?", swedish: "Sitt rakt, tack.", overlap: 0.8 })).toBeLessThan(fitting);
  });

  it("should count against a pair whose numbers differ, and not against one written alike", () => {
    expect(scorePairConfidence({ english: "Room 12 at 9.30.", swedish: "Rum 12 klockan 9,30.", overlap: 0.8 })).toBe(scorePairConfidence({ english: "Room at nine.", swedish: "Rummet vid nio.", overlap: 0.8 }));
    expect(scorePairConfidence({ english: "Room 12.", swedish: "Rum 21.", overlap: 0.8 })).toBeLessThan(0.7);
  });

  it("should stay between 0 and 1", () => {
    expect(scorePairConfidence({ english: "", swedish: "En mycket lång mening utan motsvarighet alls.", overlap: -1 })).toBeGreaterThanOrEqual(0);
    expect(scorePairConfidence({ english: "Yes.", swedish: "Ja.", overlap: 5 })).toBeLessThanOrEqual(1);
  });
});
