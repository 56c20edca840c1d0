import { describe, expect, it } from "vitest";
import { findRatingsNotSaved } from "./acknowledged-ratings.ts";

const result = {
  acknowledgedRatings: [
    { learnerKey: "anonymous:a", pairId: "p1", box: 2 },
    { learnerKey: "anonymous:a", pairId: "p1", box: 3 },
    { learnerKey: "anonymous:b", pairId: "p2", box: 2 },
  ],
  uncertainRatings: new Map([["anonymous:b", ["p2"]]]),
};

describe("given the ratings a load run saw answered 200", () => {
  it("should accept a database that holds each, and one more where a rating was in flight", () => {
    const saved = [
      { learner_key: "anonymous:a", pair_id: "p1", box: 3, review_count: 2 },
      { learner_key: "anonymous:b", pair_id: "p2", box: 1, review_count: 2 },
    ];
    expect(findRatingsNotSaved(result, saved)).toEqual({ problems: [], acknowledgedCards: 2 });
  });

  it("should name a card that is missing, short of reviews or in another box", () => {
    const saved = [{ learner_key: "anonymous:a", pair_id: "p1", box: 1, review_count: 2 }];
    expect(findRatingsNotSaved(result, saved).problems).toEqual(["anonymous:a p1: box 3 answered, box 1 saved", "anonymous:b p2: 1 ratings answered 200, none saved"]);
    expect(findRatingsNotSaved(result, [{ learner_key: "anonymous:a", pair_id: "p1", box: 3, review_count: 1 }]).problems[0]).toBe("anonymous:a p1: 2 ratings answered 200, 1 saved");
  });
});
