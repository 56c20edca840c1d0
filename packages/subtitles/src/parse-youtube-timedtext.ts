import { admitCue } from "./cue-admission.ts";
import { SubtitleParseError } from "./subtitle-parse-error.ts";
import { decodeDoubleEscapedEntities, normalizeCueLines, stripInlineMarkup } from "./subtitle-text.ts";
import type { DroppedSubtitleCue, ParsedSubtitleTrack, SubtitleCue, SubtitleParseLimits } from "./subtitle-types.ts";
import { childElements, readAttribute, type XmlElement } from "./xml-element-tree.ts";

export function isYoutubeTimedtextRoot(root: XmlElement): boolean {
  return root.namespaceUri === "" && (root.localName === "transcript" || root.localName === "timedtext");
}

/**
 * Reads YouTube timedtext: srv1 `<transcript><text start dur>` in seconds, srv2 `<timedtext><text t d>` and srv3
 * `<timedtext format="3"><body><p t d><s>` in milliseconds. Text is often escaped twice, so it is decoded again.
 */
export function parseYoutubeTimedtext(root: XmlElement, limits: SubtitleParseLimits): ParsedSubtitleTrack {
  const isSrv3 = root.localName === "timedtext" && readAttribute(root, "format") === "3";
  const container = childElements(root).find((child) => child.localName === "body") ?? root;
  const cueElements = childElements(container).filter((child) => child.localName === "text" || child.localName === "p");
  if (cueElements.length === 0) throw new SubtitleParseError("no-cues");
  const collected: { cue: SubtitleCue; elementIndex: number }[] = [];
  const droppedCues: DroppedSubtitleCue[] = [];
  cueElements.forEach((element, elementIndex) => {
    const inSeconds = readAttribute(element, "start") !== undefined;
    const start = readNumber(readAttribute(element, inSeconds ? "start" : "t"));
    const duration = readNumber(readAttribute(element, inSeconds ? "dur" : "d"));
    const scale = inSeconds ? 1000 : 1;
    const candidate = {
      text: normalizeCueLines(stripInlineMarkup(decodeDoubleEscapedEntities(readAllText(element)))),
      startMilliseconds: start === undefined ? undefined : Math.round(start * scale),
      endMilliseconds: start === undefined || duration === undefined ? undefined : Math.round((start + duration) * scale),
      elementIndex,
    };
    if (!admitCue(candidate, limits, droppedCues)) return;
    collected.push({ cue: { startMilliseconds: candidate.startMilliseconds, endMilliseconds: candidate.endMilliseconds, text: candidate.text }, elementIndex });
  });
  if (collected.length === 0) throw new SubtitleParseError("no-cues");
  const cues = collected
    .sort((left, right) => left.cue.startMilliseconds - right.cue.startMilliseconds || left.elementIndex - right.elementIndex)
    .map((entry) => entry.cue);
  const language = readAttribute(root, "lang") ?? undefined;
  return { format: isSrv3 ? "youtube-srv3" : "youtube-timedtext", ...(language === undefined ? {} : { language }), cues, droppedCues };
}

function readNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}

function readAllText(element: XmlElement): string {
  let text = "";
  for (const child of element.children) {
    if (typeof child === "string") text += child;
    else if (child.localName === "br") text += "\n";
    else text += readAllText(child);
  }
  return text;
}
