import { admitCue } from "./cue-admission.ts";
import { SubtitleParseError } from "./subtitle-parse-error.ts";
import { normalizeCueLines, stripInlineMarkup } from "./subtitle-text.ts";
import type { DroppedSubtitleCue, ParsedSubtitleTrack, SubtitleCue, SubtitleFormat, SubtitleParseLimits } from "./subtitle-types.ts";
import { parseTtmlTimeExpression, readTtmlTimingParameters, type TtmlTimingParameters } from "./ttml-time-expression.ts";
import {
  XML_NAMESPACE,
  childElements,
  descendantElements,
  readAttribute,
  readAttributeByNamespaceSuffix,
  type XmlElement,
} from "./xml-element-tree.ts";

/** TTML1, and the two legacy DFXP drafts that Netflix and older tools still write. */
export const TTML_NAMESPACES: readonly string[] = [
  "http://www.w3.org/ns/ttml",
  "http://www.w3.org/2006/10/ttaf1",
  "http://www.w3.org/2006/04/ttaf1",
];
const LEGACY_DFXP_NAMESPACES = new Set(TTML_NAMESPACES.slice(1));
const EBU_TT_METADATA_NAMESPACE = "urn:ebu:tt:metadata";
const TIMING_ATTRIBUTE_NAMESPACES = ["", ...TTML_NAMESPACES];

export function isTtmlRoot(root: XmlElement): boolean {
  return root.localName === "tt" && TTML_NAMESPACES.includes(root.namespaceUri);
}

interface TimeInterval {
  beginMilliseconds: number;
  endMilliseconds: number;
}

interface CueBeingCollected {
  cue: SubtitleCue;
  elementIndex: number;
}

interface TtmlWalkState {
  parameters: TtmlTimingParameters;
  limits: SubtitleParseLimits;
  cues: CueBeingCollected[];
  droppedCues: DroppedSubtitleCue[];
  cueElementCount: number;
}

/** Reads the text cues of a TTML-family document (TTML1, DFXP, IMSC1 text, EBU-TT, EBU-TT-D, SMPTE-TT text). */
export function parseTtmlDocument(root: XmlElement, limits: SubtitleParseLimits): ParsedSubtitleTrack {
  const parameters = readTtmlTimingParameters({
    timeBase: readAttributeByNamespaceSuffix(root, "timeBase", "#parameter"),
    frameRate: readAttributeByNamespaceSuffix(root, "frameRate", "#parameter"),
    frameRateMultiplier: readAttributeByNamespaceSuffix(root, "frameRateMultiplier", "#parameter"),
    subFrameRate: readAttributeByNamespaceSuffix(root, "subFrameRate", "#parameter"),
    tickRate: readAttributeByNamespaceSuffix(root, "tickRate", "#parameter"),
    dropMode: readAttributeByNamespaceSuffix(root, "dropMode", "#parameter"),
  });
  const state: TtmlWalkState = { parameters, limits, cues: [], droppedCues: [], cueElementCount: 0 };
  const body = childElements(root).find((child) => child.localName === "body" && isTtmlElement(child));
  if (body !== undefined) {
    const interval = resolveInterval(body, 0, Number.POSITIVE_INFINITY, parameters);
    if (interval !== undefined) walkTimedElement(body, interval, readSpacePreserve(body, false), state);
  }
  const cues = state.cues
    .sort((left, right) => left.cue.startMilliseconds - right.cue.startMilliseconds || left.cue.endMilliseconds - right.cue.endMilliseconds || left.elementIndex - right.elementIndex)
    .map((collected) => collected.cue);
  if (cues.length === 0) {
    if (hasImageContent(root)) throw new SubtitleParseError("image-only");
    throw new SubtitleParseError("no-cues");
  }
  const language = readAttribute(root, "lang", [XML_NAMESPACE]) || undefined;
  return { format: detectTtmlFormat(root), ...(language === undefined ? {} : { language }), cues, droppedCues: state.droppedCues };
}

function isTtmlElement(element: XmlElement): boolean {
  return TTML_NAMESPACES.includes(element.namespaceUri);
}

function walkTimedElement(element: XmlElement, interval: TimeInterval, spacePreserve: boolean, state: TtmlWalkState): void {
  const sequential = readAttribute(element, "timeContainer", TIMING_ATTRIBUTE_NAMESPACES) === "seq";
  let syncBeginMilliseconds = interval.beginMilliseconds;
  for (const child of childElements(element)) {
    if (!isTtmlElement(child) || (child.localName !== "div" && child.localName !== "p")) continue;
    const childSpacePreserve = readSpacePreserve(child, spacePreserve);
    const childInterval = resolveInterval(child, syncBeginMilliseconds, interval.endMilliseconds, state.parameters);
    if (child.localName === "div") {
      if (childInterval !== undefined) walkTimedElement(child, childInterval, childSpacePreserve, state);
    } else {
      collectParagraph(child, childInterval, childSpacePreserve, state);
    }
    if (sequential) syncBeginMilliseconds = childInterval?.endMilliseconds ?? Number.POSITIVE_INFINITY;
  }
}

function collectParagraph(paragraph: XmlElement, interval: TimeInterval | undefined, spacePreserve: boolean, state: TtmlWalkState): void {
  const elementIndex = state.cueElementCount;
  state.cueElementCount += 1;
  const candidate = { text: normalizeCueLines(stripInlineMarkup(readParagraphText(paragraph, spacePreserve))), startMilliseconds: interval?.beginMilliseconds, endMilliseconds: interval?.endMilliseconds, elementIndex };
  if (!admitCue(candidate, state.limits, state.droppedCues)) return;
  state.cues.push({
    cue: { startMilliseconds: Math.round(candidate.startMilliseconds), endMilliseconds: Math.round(candidate.endMilliseconds), text: candidate.text },
    elementIndex,
  });
}

/**
 * Times are relative to the timed parent: begin = parent begin + begin, end = parent begin + end or begin + dur,
 * clipped to the parent's end. Missing times inherit the parent's interval.
 */
function resolveInterval(
  element: XmlElement,
  syncBeginMilliseconds: number,
  parentEndMilliseconds: number,
  parameters: TtmlTimingParameters,
): TimeInterval | undefined {
  const beginAttribute = readAttribute(element, "begin", TIMING_ATTRIBUTE_NAMESPACES);
  const endAttribute = readAttribute(element, "end", TIMING_ATTRIBUTE_NAMESPACES);
  const durationAttribute = readAttribute(element, "dur", TIMING_ATTRIBUTE_NAMESPACES);
  const begin = beginAttribute === undefined ? 0 : parseTtmlTimeExpression(beginAttribute, parameters);
  const end = endAttribute === undefined ? undefined : parseTtmlTimeExpression(endAttribute, parameters);
  const duration = durationAttribute === undefined ? undefined : parseTtmlTimeExpression(durationAttribute, parameters);
  if (begin === undefined || (endAttribute !== undefined && end === undefined) || (durationAttribute !== undefined && duration === undefined)) {
    return undefined;
  }
  const beginMilliseconds = syncBeginMilliseconds + begin;
  let endMilliseconds = parentEndMilliseconds;
  if (end !== undefined) endMilliseconds = Math.min(endMilliseconds, syncBeginMilliseconds + end);
  if (duration !== undefined) endMilliseconds = Math.min(endMilliseconds, beginMilliseconds + duration);
  return { beginMilliseconds, endMilliseconds: Math.min(endMilliseconds, parentEndMilliseconds) };
}

function readSpacePreserve(element: XmlElement, inherited: boolean): boolean {
  const space = readAttribute(element, "space", [XML_NAMESPACE]);
  return space === undefined ? inherited : space === "preserve";
}

const SKIPPED_INLINE_ELEMENTS = new Set(["metadata", "set", "animate", "image"]);

function readParagraphText(element: XmlElement, spacePreserve: boolean): string {
  let text = "";
  for (const child of element.children) {
    if (typeof child === "string") {
      text += spacePreserve ? child.replace(/\r\n?/g, "\n") : child.replace(/\s+/g, " ");
    } else if (child.localName === "br") {
      text += "\n";
    } else if (!SKIPPED_INLINE_ELEMENTS.has(child.localName) && !child.namespaceUri.endsWith("#metadata")) {
      text += readParagraphText(child, readSpacePreserve(child, spacePreserve));
    }
  }
  return text;
}

function readProfileDesignators(root: XmlElement): string {
  const designators = [
    readAttributeByNamespaceSuffix(root, "profile", "#parameter"),
    readAttributeByNamespaceSuffix(root, "contentProfiles", "#parameter"),
  ];
  for (const element of descendantElements(root)) {
    if (element.localName === "profile") designators.push(readAttribute(element, "use"));
    if (element.localName === "head") designators.push(readAttribute(element, "use"));
    if (element.localName === "conformsToStandard") designators.push(element.children.filter((child) => typeof child === "string").join(""));
    if (element.localName === "body") break;
  }
  return designators.filter((designator) => designator !== undefined).join(" ").toLowerCase();
}

function detectTtmlFormat(root: XmlElement): SubtitleFormat {
  const profiles = readProfileDesignators(root);
  if (profiles.includes("urn:ebu:tt:distribution")) return "ebu-tt-d";
  const usesEbuMetadata = root.attributes.some((attribute) => attribute.uri === EBU_TT_METADATA_NAMESPACE) || [...descendantElements(root)].some((element) => element.namespaceUri === EBU_TT_METADATA_NAMESPACE);
  if (usesEbuMetadata || profiles.includes("urn:ebu:tt")) return "ebu-tt";
  if (profiles.includes("imsc1")) return "imsc";
  if (LEGACY_DFXP_NAMESPACES.has(root.namespaceUri) || profiles.includes("dfxp")) return "dfxp";
  return "ttml";
}

function hasImageContent(root: XmlElement): boolean {
  const profiles = readProfileDesignators(root);
  if (/imsc1(?:\.1)?\/image|cmisc|image/.test(profiles)) return true;
  for (const element of descendantElements(root)) {
    if (element.localName === "image") return true;
    if (element.attributes.some((attribute) => attribute.local === "backgroundImage")) return true;
  }
  return false;
}
