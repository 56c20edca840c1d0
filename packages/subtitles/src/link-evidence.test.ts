import { describe, expect, it } from "vitest";
import { alignTimedSegments } from "./align-timed-segments.ts";
import { expectedLengthRatio, readTextFeatures, scoreTextEvidence, type TimedSegment } from "./link-evidence.ts";

function segment(startSeconds: number, endSeconds: number, text: string): TimedSegment {
  return { startMilliseconds: startSeconds * 1000, endMilliseconds: endSeconds * 1000, text };
}

/** The text evidence of linking English segment `englishIndex` with Swedish segment `swedishIndex`, 1:1. */
function evidenceOfOneToOne(english: readonly string[], swedish: readonly string[], englishIndex: number, swedishIndex: number): number {
  const englishFeatures = readTextFeatures(english.map((text, index) => segment(index, index + 1, text)));
  const swedishFeatures = readTextFeatures(swedish.map((text, index) => segment(index, index + 1, text)));
  if (englishFeatures === undefined || swedishFeatures === undefined) throw new Error("Every segment here has a text.");
  return scoreTextEvidence(englishFeatures, swedishFeatures, expectedLengthRatio(englishFeatures, swedishFeatures), englishIndex, englishIndex + 1, swedishIndex, swedishIndex + 1);
}

describe("given two sentences a side whose Swedish boundary comes late", () => {
  // The Swedish subtitler timed the first sentence long: by time alone, one 2:2 card fits better than two 1:1 cards.
  const english = [segment(0, 2, "Where were you at 8?"), segment(2, 4, "At home, at 9.")];
  const swedish = [segment(0, 3.4, "Var var du klockan 8?"), segment(3.4, 4, "Hemma, klockan 9.")];
  const identity = { frameRateRatio: 1, offsetMilliseconds: 0 };

  it("should join them on one card when only time overlap chooses", () => {
    const { links } = alignTimedSegments(english, swedish, { fixedTimeMap: identity, linkEvidence: "time" });
    expect(links.map((link) => [link.referenceIndexes, link.otherIndexes])).toEqual([[[0, 1], [0, 1]]]);
  });

  it("should keep each sentence with its partner when the numbers and question marks are read too", () => {
    const { links } = alignTimedSegments(english, swedish, { fixedTimeMap: identity, linkEvidence: "time-length-and-lexical" });
    expect(links.map((link) => [link.referenceIndexes, link.otherIndexes])).toEqual([
      [[0], [0]],
      [[1], [1]],
    ]);
  });

  it("should link by time alone when a segment has no text", () => {
    const withoutText = swedish.map(({ startMilliseconds, endMilliseconds }) => ({ startMilliseconds, endMilliseconds }));
    const { links } = alignTimedSegments(english, withoutText, { fixedTimeMap: identity, linkEvidence: "time-length-and-lexical" });
    expect(links).toHaveLength(1);
  });
});

describe("scoreTextEvidence", () => {
  it("should favour the same numbers, written 9.30 or 9,30, and count against different ones", () => {
    expect(evidenceOfOneToOne(["Room 12 at 9.30."], ["Rum 12 klockan 9,30."], 0, 0)).toBeGreaterThan(0);
    expect(evidenceOfOneToOne(["Room 12."], ["Rum 21."], 0, 0)).toBeLessThan(0);
  });

  it("should favour the same closing question or exclamation mark and count against one that differs", () => {
    expect(evidenceOfOneToOne(["You okay?"], ["Mår du bra?"], 0, 0)).toBeGreaterThan(0);
    expect(evidenceOfOneToOne(["You okay?"], ["Jag mår bra."], 0, 0)).toBeLessThan(0);
  });

  it("should favour names and acronyms that both sides keep", () => {
    const withName = evidenceOfOneToOne(["Penny, send over the FOB."], ["Penny, skicka hit FOB."], 0, 0);
    const withoutName = evidenceOfOneToOne(["Send it over."], ["Skicka hit den."], 0, 0);
    expect(withName).toBeGreaterThan(withoutName);
  });

  it("should not count a short translation of a short sentence against it, but a long sentence against a word", () => {
    // The third pair keeps the two tracks' lengths alike, as a film's are.
    const english = ["Sit up straight.", "I promised my friend's brother's godmother that I would help her change her fax cartridge tonight.", "Yes."];
    const swedish = ["Sitt.", "Ja.", "Jag lovade min väns brors gudmor att jag skulle hjälpa henne att byta faxpatronen i kväll."];
    expect(evidenceOfOneToOne(english, swedish, 0, 0)).toBe(0);
    expect(evidenceOfOneToOne(english, swedish, 1, 1)).toBeLessThan(0);
  });
});
