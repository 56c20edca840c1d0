// The pure core: parsing and alignment, no Node API. The worker pool that runs them off a server's event loop is
// `@atelier/subtitles/node`.
export { parseSubtitleXml, resolveSubtitleParseLimits } from "./parse-subtitle-xml.ts";
export { SubtitleParseError, describeSubtitleParseErrorCode, isSubtitleParseErrorCode } from "./subtitle-parse-error.ts";
export type { SubtitleParseErrorCode } from "./subtitle-parse-error.ts";
export { DEFAULT_SUBTITLE_PARSE_LIMITS } from "./subtitle-types.ts";
export type {
  DroppedCueReason,
  DroppedSubtitleCue,
  ParsedSubtitleTrack,
  SubtitleCue,
  SubtitleFormat,
  SubtitleParseLimits,
  SubtitleSentence,
} from "./subtitle-types.ts";
export { parseTtmlTimeExpression, readTtmlTimingParameters } from "./ttml-time-expression.ts";
export type { TtmlTimingParameters, TtmlTimingParameterAttributes } from "./ttml-time-expression.ts";
export { alignSubtitleTracks, isNonDialogueCue } from "./align-subtitle-tracks.ts";
export type { AlignmentReport, SentencePair, SubtitleAlignment, SubtitleAlignmentOptions } from "./align-subtitle-tracks.ts";
export { alignTimedSegments, measureTimeMapFit } from "./align-timed-segments.ts";
export type { AlignmentLink, TimedSegmentAlignment, TimedSegmentAlignmentOptions } from "./align-timed-segments.ts";
export type { LinkEvidence, TimedSegment } from "./link-evidence.ts";
export { estimateSubtitleTimeMap, listCandidateFrameRateRatios } from "./estimate-subtitle-time-map.ts";
export type { TimeMapEstimate, TimeMapEstimateOptions } from "./estimate-subtitle-time-map.ts";
export { segmentCuesIntoSentences, splitIntoSentencePieces } from "./segment-sentences.ts";
export type { TimedSubtitleSentence } from "./segment-sentences.ts";
export { scorePairConfidence } from "./pair-confidence.ts";
export type { PairEvidence } from "./pair-confidence.ts";
export { mapTime } from "./timed-span.ts";
export type { SubtitleTimeMap, TimedSpan } from "./timed-span.ts";
export { assignMarkedSentenceIds, findCardsJoiningSeparatelyLinkedSentences, readCesAlignLinks, scoreAlignmentLinks, scoreAlignmentLinksLax } from "./alignment-quality.ts";
export type { AlignmentLinkScores, IdentifiedAlignmentLink } from "./alignment-quality.ts";
