export type SubtitleParseErrorCode =
  | "not-xml"
  | "not-subtitles"
  | "image-only"
  | "too-large"
  | "too-deep"
  | "too-many-cues"
  | "entity-declaration"
  | "no-cues"
  | "timeout"
  | "binary"
  | "unsupported-encoding"
  | "text-too-long"
  | "worker-failed";

const USER_MESSAGES: Record<SubtitleParseErrorCode, string> = {
  "not-xml": "This file is not valid XML. Please upload the subtitle file exactly as you downloaded it.",
  "not-subtitles":
    "This XML file does not contain subtitles in a format we know. Please upload a TTML, DFXP, IMSC, EBU-TT, OpenSubtitles XML or YouTube timedtext file.",
  "image-only":
    "These subtitles are pictures of text, not text, so they cannot become flashcards. Please upload a text subtitle file.",
  "too-large": "This file is too large for a subtitle file. Please upload one film or episode, in a file smaller than 5 MB.",
  "too-deep": "This file is nested far deeper than any subtitle file, so it was not read. Please upload a real subtitle file.",
  "too-many-cues": "This file has more subtitles than a film or episode could have. Please upload one film or episode at a time.",
  "entity-declaration":
    "This file declares its own XML entities, which subtitle files never need, so it was not read for safety. Please upload the file as you downloaded it.",
  "no-cues": "This subtitle file contains no timed text. Please check that it is the right file.",
  timeout: "This file took too long to read, so reading was stopped. Please upload a smaller or simpler subtitle file.",
  binary: "This file is not a text file. Please upload an XML subtitle file.",
  "unsupported-encoding":
    "This file uses a text encoding we cannot read. Please save it as UTF-8 and upload it again.",
  "text-too-long": "This file has a subtitle with far more text than fits on a screen. Please upload a real subtitle file.",
  "worker-failed": "Something went wrong while reading this file. Please try again.",
};

/**
 * The one error that parsing throws: `code` is for programs, `userMessage` is a sentence to show the learner.
 *
 * @example
 * try { parseSubtitleXml(bytes) } catch (error) {
 *   if (error instanceof SubtitleParseError) return { status: 422, message: error.userMessage };
 * }
 */
export class SubtitleParseError extends Error {
  override readonly name = "SubtitleParseError";
  readonly code: SubtitleParseErrorCode;
  /** A sentence for the user. */
  readonly userMessage: string;

  constructor(code: SubtitleParseErrorCode, detail?: string) {
    super(detail === undefined ? USER_MESSAGES[code] : `${USER_MESSAGES[code]} (${detail})`);
    this.code = code;
    this.userMessage = USER_MESSAGES[code];
  }
}

/** The learner-facing sentence for a code, e.g. to rebuild an error that crossed a worker boundary. */
export function describeSubtitleParseErrorCode(code: SubtitleParseErrorCode): string {
  return USER_MESSAGES[code];
}

export function isSubtitleParseErrorCode(value: unknown): value is SubtitleParseErrorCode {
  return typeof value === "string" && Object.hasOwn(USER_MESSAGES, value);
}
