import type { BenchFigure, BenchResult } from "./bench-result.ts";
import { figureAt, formatNumber, isObject, missing, numberAt, renderTable, type Table } from "./bench-report-format.ts";
import type { KeyFigure } from "./bench-report.ts";

/** The card figures of one way of reading the real film: its OPUS sentences, or its cues only. */
function realFilmReadings(subtitles: BenchResult): Array<{ label: string; figures: BenchFigure | undefined; cues: BenchFigure | undefined }> {
  const realFilm = figureAt(subtitles.figures, "realFilm");
  if (!isObject(realFilm)) return [];
  // Results written before the cues-only reading kept the marked sentences' figures at the top of realFilm.
  const markedSentences = isObject(realFilm.markedSentences) ? realFilm.markedSentences : realFilm;
  return [
    { label: "en–et film (OPUS), its own sentences", figures: markedSentences, cues: realFilm },
    { label: "en–et film, read as cues only (as a TTML or YouTube upload)", figures: realFilm.cuesOnly, cues: realFilm },
  ];
}

const formatF1 = (value: number | undefined) => (value === undefined ? missing : value.toFixed(3));
const formatShare = (value: number | undefined) => (value === undefined ? missing : `${(value * 100).toFixed(1)} %`);

/** Issue 16's goal: the 20,000-cue pair aligned in at most this long, warm. */
const ALIGNMENT_GOAL_CUES = 20_000;
const ALIGNMENT_GOAL_MILLISECONDS = 600;

/** The position of the 20,000-cue case in the alignment curve, or of its largest size. */
function largestAlignmentIndex(subtitles: BenchResult): number {
  const cues = figureAt(subtitles.figures, "alignment.cues");
  if (!Array.isArray(cues) || cues.length === 0) return -1;
  const twentyThousand = cues.indexOf(20_000);
  return twentyThousand === -1 ? cues.length - 1 : twentyThousand;
}

function alignmentAt(subtitles: BenchResult, key: string, index: number): number | undefined {
  const values = figureAt(subtitles.figures, `alignment.${key}`);
  const value = Array.isArray(values) ? values[index] : undefined;
  return typeof value === "number" ? value : undefined;
}

/**
 * Issue 14's figures: per film, the cards, the share with more than one sentence on a side, strict and lax link F1
 * against the published en–et alignment, the cards joining sentences the reference links separately and the
 * alignment time; the synthetic 20,000-cue pair has no reference, only its cards and time, with issue 16's goal for it.
 */
export function renderSubtitleCardTable(subtitles: BenchResult): Table | null {
  const readings = realFilmReadings(subtitles);
  const largest = largestAlignmentIndex(subtitles);
  if (readings.length === 0 && largest === -1) return null;
  const rows = readings.map(({ label, figures, cues }) => [
    label,
    `${formatNumber(numberAt(cues, "englishCues"))} × ${formatNumber(numberAt(cues, "swedishCues"))}`,
    formatNumber(numberAt(figures, "cards")),
    formatShare(numberAt(figures, "multiSentenceCardShare")),
    formatF1(numberAt(figures, "strictF1")),
    formatF1(numberAt(figures, "laxF1")),
    formatNumber(numberAt(figures, "cardsJoiningSeparatelyLinkedSentences")),
    formatNumber(numberAt(figures, "warmMilliseconds"), " ms"),
  ]);
  if (largest !== -1) {
    const cards = alignmentAt(subtitles, "pairCount", largest);
    const multiSentenceCards = alignmentAt(subtitles, "multiSentenceCardCount", largest);
    const warmTime = formatNumber(alignmentAt(subtitles, "warmMilliseconds", largest), " ms");
    rows.push([
      `synthetic pair of ${formatNumber(alignmentAt(subtitles, "cues", largest))} cues (no reference)`,
      `${formatNumber(alignmentAt(subtitles, "cues", largest))} × ${formatNumber(alignmentAt(subtitles, "swedishCues", largest))}`,
      formatNumber(cards),
      formatShare(cards === undefined || multiSentenceCards === undefined ? undefined : multiSentenceCards / Math.max(1, cards)),
      missing,
      missing,
      missing,
      alignmentAt(subtitles, "cues", largest) === ALIGNMENT_GOAL_CUES ? `${warmTime} (goal ≤ ${formatNumber(ALIGNMENT_GOAL_MILLISECONDS, " ms")})` : warmTime,
    ]);
  }
  return {
    columns: ["film", "cues", "cards", "more than one sentence on a side", "strict F1", "lax F1", "cards joining separately linked sentences", "alignment (warm)"],
    rows,
  };
}

/** The card table with its heading sentence, for the subtitles section; empty without figures. */
export function renderSubtitleCardLines(subtitles: BenchResult): string[] {
  const table = renderSubtitleCardTable(subtitles);
  if (table === null) return [];
  return ["Cards per film (issue 14), scored against the published en–et sentence alignment:", "", ...renderTable(table), ""];
}

/** The real film's card quality as key figures: its own sentences, and read as cues only. */
export function collectSubtitleCardKeyFigures(subtitles: BenchResult): KeyFigure[] {
  return realFilmReadings(subtitles)
    .filter(({ figures }) => numberAt(figures, "strictF1") !== undefined)
    .map(({ label, figures }) => ({
      area: "Subtitles",
      figure: `${label}: cards, strict / lax F1`,
      value: `${formatNumber(numberAt(figures, "cards"))}, ${formatF1(numberAt(figures, "strictF1"))} / ${formatF1(numberAt(figures, "laxF1"))}`,
    }));
}
