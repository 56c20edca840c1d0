import { describe, expect, it } from "vitest";
import type { BenchResult } from "./bench-result.ts";
import { buildBenchReport, renderBenchReportMarkdown } from "./bench-report.ts";
import type { MachineDescription } from "./describe-machine.ts";

const machine: MachineDescription = {
  cpuModel: "Test CPU @ 2.0GHz",
  cores: 2,
  memoryBytes: 8 * 1024 ** 3,
  nodeVersion: "v20.20.0",
  platform: "Linux 6.1 x64",
  gitCommit: "0123456789abcdef0123456789abcdef01234567",
  gitWorkingTree: "clean",
  loadAverage: [1.5, 1.2, 0.9],
};
const generatedAt = "2026-11-24T10:30:00.000Z";

const subtitles: BenchResult = {
  name: "subtitles",
  measuredAt: generatedAt,
  notes: [],
  figures: {
    alignment: {
      cues: [250, 20_000],
      swedishCues: [255, 20_431],
      pairCount: [243, 19_428],
      multiSentenceCardCount: [0, 12],
      coldMilliseconds: [20, 1_478],
      warmMilliseconds: [9.5, 1_139],
      retainedHeapBytes: [1_000, 67_285_168],
      peakRssDeltaBytes: [2_000, 93_691_904],
    },
    realFilm: {
      englishCues: 1_392,
      swedishCues: 1_496,
      coldMilliseconds: 194,
      warmMilliseconds: 78,
      peakRssDeltaBytes: 7_954_432,
      retainedHeapBytes: 1_200,
      pairCount: 1_651,
      markedSentences: { englishSentences: 1_775, swedishSentences: 1_832, cards: 1_742, multiSentenceCardShare: 55 / 1_742, strictF1: 0.95604, laxF1: 0.98964, cardsJoiningSeparatelyLinkedSentences: 0, lowConfidenceCards: 31, warmMilliseconds: 124.4 },
      cuesOnly: { englishSentences: 1_699, swedishSentences: 1_742, cards: 1_651, multiSentenceCardShare: 94 / 1_651, strictF1: 0.88679, laxF1: 0.99063, cardsJoiningSeparatelyLinkedSentences: 81, lowConfidenceCards: 40, warmMilliseconds: 80.2 },
    },
  },
};

describe("given the subtitles bench's card figures", () => {
  const report = buildBenchReport({ results: [subtitles], machine, generatedAt });
  const markdown = renderBenchReportMarkdown(report);

  it("should render a row per film with its cards, multi-sentence share, strict and lax F1, joining cards and alignment time", () => {
    expect(markdown).toContain("| film | cues | cards | more than one sentence on a side | strict F1 | lax F1 | cards joining separately linked sentences | alignment (warm) |");
    expect(markdown).toContain("| en–et film (OPUS), its own sentences | 1,392 × 1,496 | 1,742 | 3.2 % | 0.956 | 0.990 | 0 | 124 ms |");
    expect(markdown).toContain("| en–et film, read as cues only (as a TTML or YouTube upload) | 1,392 × 1,496 | 1,651 | 5.7 % | 0.887 | 0.991 | 81 | 80.2 ms |");
  });

  it("should render the 20,000-cue pair's cards and alignment time with issue 16's goal, without a reference to score against", () => {
    expect(markdown).toContain("| synthetic pair of 20,000 cues (no reference) | 20,000 × 20,431 | 19,428 | 0.1 % | — | — | — | 1,139 ms (goal ≤ 600 ms) |");
  });

  it("should leave the goal out when the largest pair measured is not the 20,000-cue one", () => {
    const smaller: BenchResult = {
      ...subtitles,
      figures: { alignment: { cues: [250, 5_000], swedishCues: [255, 5_107], pairCount: [243, 4_852], multiSentenceCardCount: [0, 2], warmMilliseconds: [9.5, 120] } },
    };
    const smallerMarkdown = renderBenchReportMarkdown(buildBenchReport({ results: [smaller], machine, generatedAt }));
    expect(smallerMarkdown).toContain("| synthetic pair of 5,000 cues (no reference) | 5,000 × 5,107 | 4,852 | 0.0 % | — | — | — | 120 ms |");
  });

  it("should put the film's cards and F1 among the key figures", () => {
    expect(report.keyFigures).toContainEqual({ area: "Subtitles", figure: "en–et film (OPUS), its own sentences: cards, strict / lax F1", value: "1,742, 0.956 / 0.990" });
    expect(report.keyFigures).toContainEqual({ area: "Subtitles", figure: "en–et film, read as cues only (as a TTML or YouTube upload): cards, strict / lax F1", value: "1,651, 0.887 / 0.991" });
  });

  it("should keep the section free of double blank lines", () => {
    expect(markdown).not.toMatch(/\n\n\n/);
  });
});

describe("given a subtitles result written before the cues-only reading", () => {
  it("should read the film's card figures from the top of realFilm and show a dash for what it lacks", () => {
    const older: BenchResult = {
      ...subtitles,
      figures: { realFilm: { englishCues: 1_392, swedishCues: 1_496, warmMilliseconds: 107, pairCount: 1_742, cards: 1_742, multiSentenceCardShare: 0.032, strictF1: 0.956, laxF1: 0.9896, cardsJoiningSeparatelyLinkedSentences: 0 } },
    };
    const markdown = renderBenchReportMarkdown(buildBenchReport({ results: [older], machine, generatedAt }));
    expect(markdown).toContain("| en–et film (OPUS), its own sentences | 1,392 × 1,496 | 1,742 | 3.2 % | 0.956 | 0.990 | 0 | 107 ms |");
    expect(markdown).toContain("| en–et film, read as cues only (as a TTML or YouTube upload) | 1,392 × 1,496 | — | — | — | — | — | — |");
    expect(markdown).not.toContain("synthetic pair of");
  });
});
