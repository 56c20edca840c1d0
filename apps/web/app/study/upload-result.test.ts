import { describe, expect, it } from "vitest";
import { describeUploadResult, groupNameFromFileName } from "./upload-result.ts";

const report = { offsetMilliseconds: -14_600, frameRateRatio: 1, englishCoverage: 0.97, swedishCoverage: 0.96, meanOverlap: 0.8, pairCount: 559 };

describe("given a subtitle file's name", () => {
  it.each([
    ["Morning Train.en.xml", "Morning Train"],
    ["The.Bridge.S01E01.sv.xml", "The Bridge S01E01"],
    ["pippi_langstrump_SWE.XML", "pippi langstrump"],
    ["Film-english.xml", "Film"],
    ["C:\\Users\\me\\Det sjunde inseglet.xml", "Det sjunde inseglet"],
    ["Sven.xml", "Sven"],
  ])("should suggest %s as %s", (fileName, name) => {
    expect(groupNameFromFileName(fileName)).toBe(name);
  });
});

describe("given an alignment report", () => {
  it("should say how many sentence pairs there are and how the Swedish file was moved", () => {
    expect(describeUploadResult(report, 559)).toEqual({
      headline: "559 sentence pairs; the Swedish file was 14.6 s later and has been matched.",
      details: ["Almost every line found its partner."],
    });
  });

  it("should say when the files were in step, name a frame-rate correction and what was left out", () => {
    const result = describeUploadResult({ ...report, offsetMilliseconds: 40, frameRateRatio: 1.0427, englishCoverage: 0.81, swedishCoverage: 0.9 }, 1);
    expect(result.headline).toBe("1 sentence pair; the two files were already in step.");
    expect(result.details).toEqual([
      "The two files run at different speeds (another frame rate): the Swedish timing was 4.3 % faster, and this has been corrected too.",
      "81 % of the English lines and 90 % of the Swedish lines found a partner; songs, signs and lines that only one file has were left out.",
    ]);
  });

  it("should write an earlier Swedish file and long offsets in whole seconds", () => {
    expect(describeUploadResult({ ...report, offsetMilliseconds: 62_400 }, 1_204).headline).toBe("1,204 sentence pairs; the Swedish file was 62 s earlier and has been matched.");
  });
});
