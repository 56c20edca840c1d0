/** One timed subtitle: plain text (never HTML), lines joined with "\n". */
export interface SubtitleCue {
  startMilliseconds: number;
  endMilliseconds: number;
  text: string;
}

export type SubtitleFormat =
  | "ttml"
  | "dfxp"
  | "imsc"
  | "ebu-tt"
  | "ebu-tt-d"
  | "opus"
  | "youtube-timedtext"
  | "youtube-srv3";

/** An OPUS sentence (`<s id>`); its times are interpolated from the cue milestones around it. */
export interface SubtitleSentence {
  id: string;
  text: string;
  startMilliseconds?: number;
  endMilliseconds?: number;
}

export type DroppedCueReason = "empty" | "invalid-time";

/** A cue element that was read but not kept, so that counts can be reconciled with the source file. */
export interface DroppedSubtitleCue {
  reason: DroppedCueReason;
  /** Position of the cue element in document order, counting kept and dropped cues. */
  elementIndex: number;
}

export interface ParsedSubtitleTrack {
  format: SubtitleFormat;
  language?: string;
  /** Sorted by start, then end; overlapping and simultaneous cues are kept as separate cues. */
  cues: SubtitleCue[];
  /** OPUS only: the corpus sentences, which may span several cues or share one. */
  sentences?: SubtitleSentence[];
  /** Cue elements that were empty or had unusable times. */
  droppedCues: DroppedSubtitleCue[];
}

export interface SubtitleParseLimits {
  /** Largest accepted input, in bytes (default 5 MB). */
  maximumBytes: number;
  /** Deepest element nesting (default 64). */
  maximumDepth: number;
  /** Most cue elements (default 20,000). */
  maximumCues: number;
  /** Longest text of one cue, in characters (default 2,000). */
  maximumTextLength: number;
  /** Longest text of the whole document, in characters (default 5,000,000). */
  maximumTotalTextLength: number;
  /** Most attributes on one element (default 64). */
  maximumAttributesPerElement: number;
  /** Longest attribute value, in characters (default 10,240). */
  maximumAttributeValueLength: number;
  /** Latest accepted time; later cues are dropped (default 1,000 hours). */
  maximumTimeMilliseconds: number;
}

export const DEFAULT_SUBTITLE_PARSE_LIMITS: Readonly<SubtitleParseLimits> = Object.freeze({
  maximumBytes: 5 * 1024 * 1024,
  maximumDepth: 64,
  maximumCues: 20_000,
  maximumTextLength: 2_000,
  maximumTotalTextLength: 5_000_000,
  maximumAttributesPerElement: 64,
  maximumAttributeValueLength: 10_240,
  maximumTimeMilliseconds: 1_000 * 60 * 60 * 1000,
});
