import { alignTimedSegments, findAlignedTimeMap, type AlignmentLink, type TimedSegmentAlignmentOptions } from "./align-timed-segments.ts";
import { scorePairConfidence } from "./pair-confidence.ts";
import { segmentCuesIntoSentences, type TimedSubtitleSentence } from "./segment-sentences.ts";
import { removeDialogueDashes } from "./subtitle-text.ts";
import type { ParsedSubtitleTrack, SubtitleCue } from "./subtitle-types.ts";
import { mapTime } from "./timed-span.ts";

/**
 * One flashcard: one sentence a side, or the two or three that translate each other (1:2, 2:1), never two
 * sentences that stand on their own.
 */
export interface SentencePair {
  english: string;
  swedish: string;
  englishCueIndexes: number[];
  swedishCueIndexes: number[];
  /** Indexes into `SubtitleAlignment.sentences.english` / `.swedish`. */
  englishSentenceIndexes: number[];
  swedishSentenceIndexes: number[];
  /** How sure the pairing is, 0–1: time overlap, length ratio and cheap lexical evidence (`scorePairConfidence`). */
  confidence: number;
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
  /** Dialogue sentences read from each file. */
  englishSentenceCount: number;
  swedishSentenceCount: number;
  /** Cards with more than one sentence on a side (the 1:2, 2:1 and rarer links). */
  multiSentenceCardCount: number;
  spliceDetected: boolean;
  /** Set when the files do not seem to be the same cut or episode, as a sentence for the learner. */
  warning?: string;
}

export interface SubtitleAlignmentOptions extends TimedSegmentAlignmentOptions {
  /** Links whose temporal IoU is lower are not made into cards (default 0.3). */
  minimumCardOverlap?: number;
  /** Keep title cards, credits, lyrics and sound descriptions (default false). */
  keepNonDialogueCues?: boolean;
}

export interface SubtitleAlignment {
  pairs: SentencePair[];
  report: AlignmentReport;
  /** The raw links between sentence indexes, including unmatched sentences. */
  links: AlignmentLink[];
  /** The dialogue sentences of each file, in time order, that the links and cards point into. */
  sentences: { english: TimedSubtitleSentence[]; swedish: TimedSubtitleSentence[] };
}

const NON_DIALOGUE_PATTERNS: readonly RegExp[] = [
  /^(?:SÉRIE|SERIE|SERIES|EN SERIE FRÅN|A) NETFLIX(?: ORIGINAL)?(?: SERIES)?$/i,
  /^NETFLIX (?:ORIGINAL )?(?:SERIES|PRESENTS|PRESENTERAR)$/i,
  /(?:översättning|översatt av|subtitles? by|translated by|synced? (?:and|&) corrected|sync(?:ed)? by|undertexter?:|text(?:ning)?:)\s/i,
  /(?:www\.|https?:\/\/|opensubtitles|divxsweden|addic7ed|podnapisi)/i,
  /^[\s♪♫#*]*$/,
  /^[♪♫#].*[♪♫#]?$/,
  /^[[(][^\])]*[\])]$/,
  // An on-screen caption or sign in capitals without a sentence's punctuation ("WEIT WEIT WEG", "STOCKHOLM 1944").
  /^[^\p{Ll}.!?]*\p{Lu}{2}[^\p{Ll}.!?]*$/u,
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
  const englishSentences = dialogueSentencesOf(english, englishCues, options);
  const swedishSentences = dialogueSentencesOf(swedish, swedishCues, options);
  // The time map first, found on the cues (their times are the file's own; a sentence's are shared out from them),
  // splices included; then, inside it, 1:1, 1:2, 2:1 and rarer links between sentences by time overlap. A card is one
  // link, so it never joins two sentences that each have a partner of their own.
  const cueAlignment = findAlignedTimeMap(
    englishCues.map((entry) => entry.cue),
    swedishCues.map((entry) => entry.cue),
    { ...options, linkEvidence: "time" },
  );
  const sentenceAlignment = alignTimedSegments(englishSentences, swedishSentences, { linkEvidence: "time-length-and-lexical", ...options, fixedTimeMap: cueAlignment.timeMap });
  const alignment = { ...sentenceAlignment, spliceDetected: cueAlignment.spliceDetected };
  const minimumCardOverlap = options.minimumCardOverlap ?? 0.3;
  const cardLinks = alignment.links.filter((link) => link.referenceIndexes.length > 0 && link.otherIndexes.length > 0 && link.overlap >= minimumCardOverlap);
  const pairs = cardLinks.map((link) => toSentencePair(link, englishSentences, swedishSentences));

  const linkTypeCounts: Record<string, number> = {};
  for (const link of alignment.links) {
    const key = `${link.referenceIndexes.length}:${link.otherIndexes.length}`;
    linkTypeCounts[key] = (linkTypeCounts[key] ?? 0) + 1;
  }
  const englishCovered = cardLinks.reduce((sum, link) => sum + link.referenceIndexes.length, 0);
  const swedishCovered = cardLinks.reduce((sum, link) => sum + link.otherIndexes.length, 0);
  const englishCoverage = englishSentences.length === 0 ? 0 : englishCovered / englishSentences.length;
  const swedishCoverage = swedishSentences.length === 0 ? 0 : swedishCovered / swedishSentences.length;
  const meanOverlap = cardLinks.length === 0 ? 0 : cardLinks.reduce((sum, link) => sum + link.overlap, 0) / cardLinks.length;
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
    englishSentenceCount: englishSentences.length,
    swedishSentenceCount: swedishSentences.length,
    multiSentenceCardCount: pairs.filter((pair) => pair.englishSentenceIndexes.length > 1 || pair.swedishSentenceIndexes.length > 1).length,
    spliceDetected: alignment.spliceDetected,
    ...(warning === undefined ? {} : { warning }),
  };
  return { pairs, report, links: alignment.links, sentences: { english: englishSentences, swedish: swedishSentences } };
}

function toSentencePair(link: AlignmentLink, englishSentences: readonly TimedSubtitleSentence[], swedishSentences: readonly TimedSubtitleSentence[]): SentencePair {
  const englishParts = link.referenceIndexes.map((index) => englishSentences[index] as TimedSubtitleSentence);
  const swedishParts = link.otherIndexes.map((index) => swedishSentences[index] as TimedSubtitleSentence);
  const english = joinSentenceTexts(englishParts);
  const swedish = joinSentenceTexts(swedishParts);
  let startMilliseconds = Number.POSITIVE_INFINITY;
  let endMilliseconds = Number.NEGATIVE_INFINITY;
  for (const sentence of englishParts) {
    startMilliseconds = Math.min(startMilliseconds, sentence.startMilliseconds);
    endMilliseconds = Math.max(endMilliseconds, sentence.endMilliseconds);
  }
  return {
    english,
    swedish,
    englishCueIndexes: cueIndexesOf(englishParts),
    swedishCueIndexes: cueIndexesOf(swedishParts),
    englishSentenceIndexes: [...link.referenceIndexes],
    swedishSentenceIndexes: [...link.otherIndexes],
    confidence: scorePairConfidence({ english, swedish, overlap: link.overlap }),
    startMilliseconds,
    endMilliseconds,
  };
}

function joinSentenceTexts(sentences: readonly TimedSubtitleSentence[]): string {
  return sentences.length === 1 ? (sentences[0] as TimedSubtitleSentence).text : sentences.map((sentence) => sentence.text).join(" ");
}

/** The sentences' cues, each once, in order of first mention (a sentence lists its own cues once each). */
function cueIndexesOf(sentences: readonly TimedSubtitleSentence[]): number[] {
  if (sentences.length === 1) return [...(sentences[0] as TimedSubtitleSentence).cueIndexes];
  return [...new Set(sentences.flatMap((sentence) => sentence.cueIndexes))];
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
  let inTimeOrder = true;
  for (let originalIndex = 0; originalIndex < cues.length; originalIndex += 1) {
    const cue = cues[originalIndex] as SubtitleCue;
    if (cue.endMilliseconds <= cue.startMilliseconds) continue;
    if (!options.keepNonDialogueCues && isNonDialogueCue(cue.text)) continue;
    let text = cue.text;
    // Automatic captions roll: each cue repeats the previous cue's last line first, so that line is dropped here.
    if (text.includes("\n")) {
      const allLines = text.split("\n");
      if (previousLastLine !== undefined && allLines[0] === previousLastLine) text = allLines.slice(1).join("\n");
      previousLastLine = allLines[allLines.length - 1];
    } else {
      previousLastLine = text;
    }
    if (text.trim().length === 0) continue;
    const last = prepared[prepared.length - 1];
    if (last !== undefined && last.cue.startMilliseconds > cue.startMilliseconds) inTimeOrder = false;
    prepared.push({ cue: { ...cue, text }, originalIndex });
  }
  // Files list their cues in time order, as a rule: then the sort would keep them as they are.
  if (inTimeOrder) return prepared;
  return prepared.sort((left, right) => left.cue.startMilliseconds - right.cue.startMilliseconds || left.originalIndex - right.originalIndex);
}

/** A sentence of nothing but punctuation ("?", "...") is a tokenizer's leftover, not something to learn. */
const HAS_WORDS = /[\p{L}\p{N}]/u;

/**
 * The dialogue sentences of a track, in time order. A file that marks its sentences (OPUS `<s id>`) gives them with
 * their ids; any other is read as a stream of sentences from its dialogue cues (`segmentCuesIntoSentences`).
 */
function dialogueSentencesOf(track: ParsedSubtitleTrack | readonly SubtitleCue[], cues: readonly PreparedCue[], options: SubtitleAlignmentOptions): TimedSubtitleSentence[] {
  const marked = Array.isArray(track) ? undefined : (track as ParsedSubtitleTrack).sentences;
  if (marked !== undefined && marked.length > 0) {
    const timed = marked
      .filter((sentence) => sentence.startMilliseconds !== undefined && sentence.endMilliseconds !== undefined && sentence.endMilliseconds > sentence.startMilliseconds)
      .sort((left, right) => (left.startMilliseconds as number) - (right.startMilliseconds as number));
    const sentences: TimedSubtitleSentence[] = [];
    // Cues and sentences both go forward in time: one sweep finds each sentence's cues.
    let firstCue = 0;
    for (const sentence of timed) {
      const startMilliseconds = sentence.startMilliseconds as number;
      const endMilliseconds = sentence.endMilliseconds as number;
      while (firstCue < cues.length && (cues[firstCue] as PreparedCue).cue.endMilliseconds <= startMilliseconds) firstCue += 1;
      if (!options.keepNonDialogueCues && isNonDialogueCue(sentence.text)) continue;
      const text = removeDialogueDashes(sentence.text).replace(/\s*\n\s*/g, " ").trim();
      if (!HAS_WORDS.test(text)) continue;
      const cueIndexes: number[] = [];
      for (let index = firstCue; index < cues.length && (cues[index] as PreparedCue).cue.startMilliseconds < endMilliseconds; index += 1) {
        const entry = cues[index] as PreparedCue;
        if (entry.cue.endMilliseconds > startMilliseconds) cueIndexes.push(entry.originalIndex);
      }
      sentences.push({ id: sentence.id, text, startMilliseconds, endMilliseconds, cueIndexes });
    }
    return sentences;
  }
  const sentences: TimedSubtitleSentence[] = [];
  for (const sentence of segmentCuesIntoSentences(cues.map((entry) => entry.cue))) {
    if (!HAS_WORDS.test(sentence.text)) continue;
    // The sentences are new: their cue indexes are turned into the file's own in place.
    const { cueIndexes } = sentence;
    for (let index = 0; index < cueIndexes.length; index += 1) cueIndexes[index] = (cues[cueIndexes[index] as number] as PreparedCue).originalIndex;
    sentences.push(sentence);
  }
  return sentences;
}
