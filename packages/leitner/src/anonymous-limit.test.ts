import { describe, expect, it } from "vitest";
import { canAnonymousLearnerRate, canLearnerRate, isAnonymousLimitReached } from "./anonymous-limit.ts";

describe("isAnonymousLimitReached", () => {
  it("is not reached at 4 memorized cards", () => {
    expect(isAnonymousLimitReached(4)).toBe(false);
  });

  it("is reached at exactly 5 memorized cards", () => {
    expect(isAnonymousLimitReached(5)).toBe(true);
  });

  it("stays reached above 5", () => {
    expect(isAnonymousLimitReached(6)).toBe(true);
  });
});

describe("canAnonymousLearnerRate", () => {
  it("lets an anonymous learner rate with 4 memorized cards and blocks at 5", () => {
    expect(canAnonymousLearnerRate({ memorized: 4 })).toBe(true);
    expect(canAnonymousLearnerRate({ memorized: 5 })).toBe(false);
  });
});

describe("canLearnerRate", () => {
  it("never blocks a signed-in learner", () => {
    expect(canLearnerRate("signed-in", { memorized: 500 })).toBe(true);
  });

  it("blocks an anonymous learner at 5 memorized cards", () => {
    expect(canLearnerRate("anonymous", { memorized: 4 })).toBe(true);
    expect(canLearnerRate("anonymous", { memorized: 5 })).toBe(false);
  });
});
