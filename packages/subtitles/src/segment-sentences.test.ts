import { describe, expect, it } from "vitest";
import { segmentCuesIntoSentences, splitIntoSentencePieces } from "./segment-sentences.ts";
import type { SubtitleCue } from "./subtitle-types.ts";

function cue(startSeconds: number, endSeconds: number, text: string): SubtitleCue {
  return { startMilliseconds: startSeconds * 1000, endMilliseconds: endSeconds * 1000, text };
}

const texts = (cues: SubtitleCue[]) => segmentCuesIntoSentences(cues).map((sentence) => sentence.text);

describe("splitIntoSentencePieces", () => {
  it.each([
    ["Hi. Who is it?", ["Hi.", "Who is it?"]],
    ["Mr. Smith is here. Come in!", ["Mr. Smith is here.", "Come in!"]],
    ["Ta t.ex. tåget. Det går fort.", ["Ta t.ex. tåget.", "Det går fort."]],
    ["Wait... no, stay.", ["Wait... no, stay."]],
    ['He said "Go." Then he left.', ['He said "Go."', "Then he left."]],
    ["It's 9.30. We're late.", ["It's 9.30.", "We're late."]],
  ])("should split %j", (line, pieces) => {
    expect(splitIntoSentencePieces(line)).toEqual(pieces);
  });
});

describe("segmentCuesIntoSentences", () => {
  it("should carry a sentence over into the next cue and split a cue that holds two", () => {
    expect(texts([cue(1, 3, "From now on, he'll take care of you..."), cue(3, 5, "and you'll take care of him. Right?"), cue(6, 7, "Right.")])).toEqual([
      "From now on, he'll take care of you... and you'll take care of him.",
      "Right?",
      "Right.",
    ]);
  });

  it("should carry a sentence over a line break inside a cue", () => {
    expect(texts([cue(1, 3, "I think that\nwe should go.")])).toEqual(["I think that we should go."]);
  });

  it("should start a new sentence at each speaker's dash, even without a stop before it", () => {
    expect(texts([cue(1, 3, "- Kommer du\n- Ja, nu. - Bra.")])).toEqual(["Kommer du", "Ja, nu.", "Bra."]);
  });

  it("should time each piece by its share of the cue, and keep the cues a sentence came from", () => {
    const [first, second] = segmentCuesIntoSentences([cue(0, 10, "Hello there. Who?"), cue(10, 12, "Me.")]);
    expect(first).toMatchObject({ text: "Hello there.", startMilliseconds: 0, cueIndexes: [0] });
    expect(first?.endMilliseconds).toBe(7059);
    expect(second).toMatchObject({ text: "Who?", endMilliseconds: 10_000, cueIndexes: [0] });
  });

  it("should close a sentence without a stop after 4 cues, as songs and lists have none", () => {
    const cues = Array.from({ length: 6 }, (_, index) => cue(index * 2, index * 2 + 1.5, `and on we go number ${index}`));
    expect(segmentCuesIntoSentences(cues).map((sentence) => sentence.cueIndexes)).toEqual([[0, 1, 2, 3], [4, 5]]);
  });

  it("should give the same sentences when the track is moved or stretched", () => {
    const cues = [cue(1, 3, "One. Two"), cue(4, 6, "three. Four?"), cue(30, 32, "five.")];
    const stretched = cues.map((entry) => ({ ...entry, startMilliseconds: entry.startMilliseconds * 1.04 + 7_000, endMilliseconds: entry.endMilliseconds * 1.04 + 7_000 }));
    expect(texts(stretched)).toEqual(texts(cues));
  });
});
