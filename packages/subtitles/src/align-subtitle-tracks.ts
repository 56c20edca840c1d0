import { alignTimedSegments, type AlignmentLink, type TimedSegmentAlignmentOptions } from "./align-timed-segments.ts";
import { endsWithSentenceFinalPunctuation } from "./subtitle-text.ts";
import type { ParsedSubtitleTrack, SubtitleCue } from "./subtitle-types.ts";
import { mapTime } from "./timed-span.ts";

/** One flashcard: whole sentences in both languages, with the cues they came from. */
export interface SentencePair {
  english: string;
  swedish: string;
  englishCueIndexes: number[];
  swedishCueIndexes: number[];
  /** On the English track's clock. */
  startMilliseconds: number;
  endMilliseconds: number;
}

export interface AlignmentReport {
  /** `english ≈ frameRateRatio · swedish + offsetMilliseconds`. */
  offsetMilliseconds: number;
  frameRateRatio: number;
  /** Share of the English dialogue cues that ended up in a pair. */
  englishCoverage: number;
  /** Share of the Swedish dialogue cues that ended up in a pair. */
  swedishCoverage: number;
  /** Mean temporal IoU of the links kept in pairs. */
  meanOverlap: number;
  pairCount: number;
  /** Share of the two-sided links whose groups overlap in time by at least 60 %; unrelated films stay near 0.55, one film near 1. */
  closelyTimedLinkShare: number;
  /** Links by shape, e.g. { "1:1": 640, "1:2": 31, "0:1": 12 }. */
  linkTypeCounts: Record<string, number>;
  spliceDetected: boolean;
  /** Set when the files do not seem to be the same cut or episode, as a sentence for the learner. */
  warning?: string;
}

export interface SubtitleAlignmentOptions extends TimedSegmentAlignmentOptions {
  /** Links whose temporal IoU is lower are not made into cards (default 0.3). */
  minimumCardOverlap?: number;
  /** Most links merged into one card (default 3). */
  maximumLinksPerCard?: number;
  /** Most characters on one side of a card (default 220). */
  maximumCardCharacters?: number;
  /** Keep title cards, credits, lyrics and sound descriptions (default false). */
  keepNonDialogueCues?: boolean;
}

export interface SubtitleAlignment {
  pairs: SentencePair[];
  report: AlignmentReport;
  /** The raw links between cue indexes, including unmatched cues. */
  links: AlignmentLink[];
}

const NON_DIALOGUE_PATTERNS: readonly RegExp[] = [
  /^(?:SÉRIE|SERIE|SERIES|EN SERIE FRÅN|A) NETFLIX(?: ORIGINAL)?(?: SERIES)?$/i,
  /^NETFLIX (?:ORIGINAL )?(?:SERIES|PRESENTS|PRESENTERAR)$/i,
  /(?:översättning|översatt av|subtitles? by|translated by|synced? (?:and|&) corrected|sync(?:ed)? by|undertexter?:|text(?:ning)?:)\s/i,
  /(?:www\.|https?:\/\/|opensubtitles|divxsweden|addic7ed|podnapisi)/i,
  /^[\s♪♫#*]*$/,
  /^[♪♫#].*[♪♫#]?$/,
  /^[[(][^\])]*[\])]$/,
];

/** Title cards, credits, lyrics and sound descriptions, which have no counterpart worth learning. */
export function isNonDialogueCue(text: string): boolean {
  const singleLine = text.replace(/\n/g, " ").trim();
  return NON_DIALOGUE_PATTERNS.some((pattern) => pattern.test(singleLine));
}

/**
 * Pairs an English and a Swedish subtitle track into whole-sentence cards and reports how well they fit:
 * offset and frame-rate ratio, coverage of each side, mean overlap, and a warning for mismatched files.
 *
 * @example
 * const { pairs, report } = alignSubtitleTracks(parseSubtitleXml(englishBytes), parseSubtitleXml(swedishBytes));
 * if (report.warning) showWarning(report.warning);
 * pairs[0]; // { english: "Where are you going?", swedish: "Vart ska du?", ... }
 */
export function alignSubtitleTracks(
  english: ParsedSubtitleTrack | readonly SubtitleCue[],
  swedish: ParsedSubtitleTrack | readonly SubtitleCue[],
  options: SubtitleAlignmentOptions = {},
): SubtitleAlignment {
  const englishCues = prepareCues(english, options);
  const swedishCues = prepareCues(swedish, options);
  const englishSpans = englishCues.map((entry) => entry.cue);
  const swedishSpans = swedishCues.map((entry) => entry.cue);
  const alignment = alignTimedSegments(englishSpans, swedishSpans, options);
  const links: AlignmentLink[] = alignment.links.map((link) => ({
    referenceIndexes: link.referenceIndexes.map((index) => (englishCues[index] as PreparedCue).originalIndex),
    otherIndexes: link.otherIndexes.map((index) => (swedishCues[index] as PreparedCue).originalIndex),
    overlap: link.overlap,
  }));
  const minimumCardOverlap = options.minimumCardOverlap ?? 0.3;
  const pairs = mergeLinksIntoSentencePairs(alignment.links, englishCues, swedishCues, {
    minimumCardOverlap,
    maximumLinksPerCard: options.maximumLinksPerCard ?? 3,
    maximumCardCharacters: options.maximumCardCharacters ?? 220,
  });

  const linkTypeCounts: Record<string, number> = {};
  for (const link of alignment.links) {
    const key = `${link.referenceIndexes.length}:${link.otherIndexes.length}`;
    linkTypeCounts[key] = (linkTypeCounts[key] ?? 0) + 1;
  }
  const keptLinks = alignment.links.filter((link) => link.referenceIndexes.length > 0 && link.otherIndexes.length > 0 && link.overlap >= minimumCardOverlap);
  const englishCovered = keptLinks.reduce((sum, link) => sum + link.referenceIndexes.length, 0);
  const swedishCovered = keptLinks.reduce((sum, link) => sum + link.otherIndexes.length, 0);
  const englishCoverage = englishCues.length === 0 ? 0 : englishCovered / englishCues.length;
  const swedishCoverage = swedishCues.length === 0 ? 0 : swedishCovered / swedishCues.length;
  const meanOverlap = keptLinks.length === 0 ? 0 : keptLinks.reduce((sum, link) => sum + link.overlap, 0) / keptLinks.length;
  const twoSidedLinks = alignment.links.filter((link) => link.referenceIndexes.length > 0 && link.otherIndexes.length > 0);
  const closelyTimedLinkShare = twoSidedLinks.length === 0 ? 0 : twoSidedLinks.filter((link) => link.overlap >= 0.6).length / twoSidedLinks.length;
  const warning = describeMismatch(englishCoverage, swedishCoverage, meanOverlap, closelyTimedLinkShare);
  const report: AlignmentReport = {
    offsetMilliseconds: Math.round(mapTime(alignment.timeMap, 0)),
    frameRateRatio: alignment.timeMap.frameRateRatio,
    englishCoverage,
    swedishCoverage,
    meanOverlap,
    closelyTimedLinkShare,
    pairCount: pairs.length,
    linkTypeCounts,
    spliceDetected: alignment.spliceDetected,
    ...(warning === undefined ? {} : { warning }),
  };
  return { pairs, report, links };
}

function describeMismatch(
  englishCoverage: number,
  swedishCoverage: number,
  meanOverlap: number,
  closelyTimedLinkShare: number,
): string | undefined {
  const reasons: string[] = [];
  if (Math.min(englishCoverage, swedishCoverage) < 0.6) {
    reasons.push(`only ${percent(englishCoverage)} of the English and ${percent(swedishCoverage)} of the Swedish subtitles found a partner`);
  }
  if (meanOverlap < 0.4) reasons.push(`the paired subtitles overlap in time by only ${percent(meanOverlap)} on average`);
  if (closelyTimedLinkShare < 0.7) reasons.push(`only ${percent(closelyTimedLinkShare)} of the paired subtitles start and end at about the same time`);
  if (reasons.length === 0) return undefined;
  return `These two files do not seem to be the same cut or episode: ${reasons.join(", and ")}. Check that both files belong to the same film or episode, or set the offset by hand.`;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

interface PreparedCue {
  cue: SubtitleCue;
  originalIndex: number;
}

function prepareCues(track: ParsedSubtitleTrack | readonly SubtitleCue[], options: SubtitleAlignmentOptions): PreparedCue[] {
  const cues = Array.isArray(track) ? (track as readonly SubtitleCue[]) : (track as ParsedSubtitleTrack).cues;
  const prepared: PreparedCue[] = [];
  let previousLastLine: string | undefined;
  cues.forEach((cue, originalIndex) => {
    if (cue.endMilliseconds <= cue.startMilliseconds) return;
    if (!options.keepNonDialogueCues && isNonDialogueCue(cue.text)) return;
    // Automatic captions roll: each cue repeats the previous cue's last line first, so that line is dropped here.
    let lines = cue.text.split("\n");
    if (previousLastLine !== undefined && lines.length > 1 && lines[0] === previousLastLine) lines = lines.slice(1);
    previousLastLine = cue.text.split("\n").at(-1);
    const text = lines.join("\n");
    if (text.trim().length === 0) return;
    prepared.push({ cue: { ...cue, text }, originalIndex });
  });
  return prepared.sort((left, right) => left.cue.startMilliseconds - right.cue.startMilliseconds || left.originalIndex - right.originalIndex);
}

interface CardLimits {
  minimumCardOverlap: number;
  maximumLinksPerCard: number;
  maximumCardCharacters: number;
}

function joinCueTexts(cues: readonly PreparedCue[], indexes: readonly number[]): string {
  return indexes
    .map((index) => (cues[index] as PreparedCue).cue.text.replace(/\s*\n\s*/g, " "))
    .join(" ")
    .replace(/\.\.\.\s*\.\.\./g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Consecutive links merge until both sides end a sentence, up to a few links or about 220 characters a side; a link
 * without a partner or with little overlap closes the card being built.
 */
function mergeLinksIntoSentencePairs(
  links: readonly AlignmentLink[],
  englishCues: readonly PreparedCue[],
  swedishCues: readonly PreparedCue[],
  limits: CardLimits,
): SentencePair[] {
  const pairs: SentencePair[] = [];
  let pending: AlignmentLink[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const englishIndexes = pending.flatMap((link) => link.referenceIndexes);
    const swedishIndexes = pending.flatMap((link) => link.otherIndexes);
    pairs.push({
      english: joinCueTexts(englishCues, englishIndexes),
      swedish: joinCueTexts(swedishCues, swedishIndexes),
      englishCueIndexes: englishIndexes.map((index) => (englishCues[index] as PreparedCue).originalIndex),
      swedishCueIndexes: swedishIndexes.map((index) => (swedishCues[index] as PreparedCue).originalIndex),
      startMilliseconds: Math.min(...englishIndexes.map((index) => (englishCues[index] as PreparedCue).cue.startMilliseconds)),
      endMilliseconds: Math.max(...englishIndexes.map((index) => (englishCues[index] as PreparedCue).cue.endMilliseconds)),
    });
    pending = [];
  };
  for (const link of links) {
    const usable = link.referenceIndexes.length > 0 && link.otherIndexes.length > 0 && link.overlap >= limits.minimumCardOverlap;
    if (!usable) {
      flush();
      continue;
    }
    if (pending.length > 0) {
      const candidate = [...pending, link];
      const englishLength = joinCueTexts(englishCues, candidate.flatMap((entry) => entry.referenceIndexes)).length;
      const swedishLength = joinCueTexts(swedishCues, candidate.flatMap((entry) => entry.otherIndexes)).length;
      if (candidate.length > limits.maximumLinksPerCard || Math.max(englishLength, swedishLength) > limits.maximumCardCharacters) flush();
    }
    pending.push(link);
    const englishText = joinCueTexts(englishCues, pending.flatMap((entry) => entry.referenceIndexes));
    const swedishText = joinCueTexts(swedishCues, pending.flatMap((entry) => entry.otherIndexes));
    if (endsWithSentenceFinalPunctuation(englishText) && endsWithSentenceFinalPunctuation(swedishText)) flush();
  }
  flush();
  return pairs;
}
