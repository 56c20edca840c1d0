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
    const text = normalizeCueLines(stripInlineMarkup(decodeDoubleEscapedEntities(readAllText(element))));
    if (text.length > limits.maximumTextLength) throw new SubtitleParseError("text-too-long", `cue ${elementIndex + 1}`);
    const startMilliseconds = start === undefined ? undefined : Math.round(start * scale);
    const endMilliseconds = start === undefined || duration === undefined ? undefined : Math.round((start + duration) * scale);
    if (
      startMilliseconds === undefined ||
      endMilliseconds === undefined ||
      endMilliseconds <= startMilliseconds ||
      endMilliseconds > limits.maximumTimeMilliseconds
    ) {
      droppedCues.push({ reason: "invalid-time", elementIndex });
      return;
    }
    if (text.length === 0) {
      droppedCues.push({ reason: "empty", elementIndex });
      return;
    }
    collected.push({ cue: { startMilliseconds, endMilliseconds, text }, elementIndex });
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
