import { decodeSubtitleInput } from "./decode-subtitle-input.ts";
import { isOpusRoot, parseOpusDocument } from "./parse-opus-document.ts";
import { isTtmlRoot, parseTtmlDocument } from "./parse-ttml-document.ts";
import { isYoutubeTimedtextRoot, parseYoutubeTimedtext } from "./parse-youtube-timedtext.ts";
import { SubtitleParseError } from "./subtitle-parse-error.ts";
import { DEFAULT_SUBTITLE_PARSE_LIMITS, type ParsedSubtitleTrack, type SubtitleParseLimits } from "./subtitle-types.ts";
import { readXmlElementTree } from "./xml-element-tree.ts";

/** The defaults with any given limits applied over them. */
export function resolveSubtitleParseLimits(limits: Partial<SubtitleParseLimits> = {}): SubtitleParseLimits {
  const resolved = { ...DEFAULT_SUBTITLE_PARSE_LIMITS };
  for (const [name, value] of Object.entries(limits) as [keyof SubtitleParseLimits, number | undefined][]) {
    if (value !== undefined) resolved[name] = value;
  }
  return resolved;
}

/**
 * Parses one XML subtitle file (TTML/DFXP, IMSC, EBU-TT, EBU-TT-D, OPUS/OpenSubtitles XML or YouTube timedtext),
 * recognised by root element and namespace, never by file name. Synchronous and pure; throws `SubtitleParseError`.
 * For uploads, call `parseSubtitleXmlInWorker`, which adds a time limit.
 *
 * @example
 * const track = parseSubtitleXml(await readFile("episode.sv.ttml"));
 * track.cues[0]; // { startMilliseconds: 7925, endMilliseconds: 9410, text: "Hej!" }
 */
export function parseSubtitleXml(input: Uint8Array | string, limits?: Partial<SubtitleParseLimits>): ParsedSubtitleTrack {
  const resolvedLimits = resolveSubtitleParseLimits(limits);
  const xmlText = decodeSubtitleInput(input, resolvedLimits.maximumBytes);
  if (!/^\s*</.test(xmlText)) throw new SubtitleParseError("not-xml", "the file does not start with a tag");
  const root = readXmlElementTree(xmlText, resolvedLimits);
  if (isTtmlRoot(root)) return parseTtmlDocument(root, resolvedLimits);
  if (isOpusRoot(root)) return parseOpusDocument(root, resolvedLimits);
  if (isYoutubeTimedtextRoot(root)) return parseYoutubeTimedtext(root, resolvedLimits);
  throw new SubtitleParseError("not-subtitles", `root element <${root.localName}>${root.namespaceUri === "" ? "" : ` in ${root.namespaceUri}`}`);
}
