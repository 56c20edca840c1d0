import { admitCue } from "./cue-admission.ts";
import { SubtitleParseError } from "./subtitle-parse-error.ts";
import { detokenizeOpusTokens, normalizeCueLines, stripInlineMarkup } from "./subtitle-text.ts";
import type { DroppedSubtitleCue, ParsedSubtitleTrack, SubtitleCue, SubtitleParseLimits, SubtitleSentence } from "./subtitle-types.ts";
import { childElements, readAttribute, type XmlElement } from "./xml-element-tree.ts";

export function isOpusRoot(root: XmlElement): boolean {
  return root.localName === "document" && root.namespaceUri === "" && childElements(root).some((child) => child.localName === "s");
}

type OpusEvent =
  | { kind: "time"; isStart: boolean; milliseconds: number | undefined }
  | { kind: "token"; text: string; sentenceIndex: number };

interface OpenCue {
  startMilliseconds: number | undefined;
  tokenEventIndexes: number[];
  elementIndex: number;
}

/**
 * Reads an OPUS/OpenSubtitles corpus file. `<time id="T7S"/>` and `T7E` are milestones, not containers: a cue runs
 * from one start milestone to the next end milestone, and sentences (`<s>`) may cross cue boundaries either way.
 * Sentence times are interpolated by character position inside the cues they start and end in.
 */
export function parseOpusDocument(root: XmlElement, limits: SubtitleParseLimits): ParsedSubtitleTrack {
  const events: OpusEvent[] = [];
  const sentenceIds: string[] = [];
  for (const sentence of childElements(root)) {
    if (sentence.localName !== "s") continue;
    sentenceIds.push(readAttribute(sentence, "id") ?? String(sentenceIds.length + 1));
    collectEvents(sentence, sentenceIds.length - 1, events);
  }

  const cues: { cue: SubtitleCue; elementIndex: number }[] = [];
  const droppedCues: DroppedSubtitleCue[] = [];
  const tokenTimes = new Map<number, { startMilliseconds: number; endMilliseconds: number }>();
  let openCue: OpenCue | undefined;
  let cueElementCount = 0;

  const closeCue = (endMilliseconds: number | undefined) => {
    if (openCue === undefined) return;
    const { startMilliseconds, tokenEventIndexes, elementIndex } = openCue;
    openCue = undefined;
    const tokens = tokenEventIndexes.map((index) => (events[index] as { text: string }).text);
    const candidate = { text: normalizeCueLines(stripInlineMarkup(detokenizeOpusTokens(tokens))), startMilliseconds, endMilliseconds, elementIndex };
    if (!admitCue(candidate, limits, droppedCues)) return;
    cues.push({ cue: { startMilliseconds: candidate.startMilliseconds, endMilliseconds: candidate.endMilliseconds, text: candidate.text }, elementIndex });
    assignInterpolatedTokenTimes(tokens, tokenEventIndexes, candidate.startMilliseconds, candidate.endMilliseconds, tokenTimes);
  };

  for (let eventIndex = 0; eventIndex < events.length; eventIndex += 1) {
    const event = events[eventIndex] as OpusEvent;
    if (event.kind === "time") {
      if (event.isStart) {
        // A start milestone without the previous end closes the previous cue where this one begins.
        if (openCue !== undefined) closeCue(event.milliseconds);
        openCue = { startMilliseconds: event.milliseconds, tokenEventIndexes: [], elementIndex: cueElementCount };
        cueElementCount += 1;
        if (cueElementCount > limits.maximumCues) throw new SubtitleParseError("too-many-cues", `more than ${limits.maximumCues}`);
      } else {
        closeCue(event.milliseconds);
      }
    } else if (openCue !== undefined) {
      openCue.tokenEventIndexes.push(eventIndex);
    }
  }
  closeCue(undefined);

  const sentences = buildSentences(events, sentenceIds, tokenTimes);
  if (cues.length === 0 && sentences.length === 0) throw new SubtitleParseError("no-cues");
  const sortedCues = cues
    .sort((left, right) => left.cue.startMilliseconds - right.cue.startMilliseconds || left.elementIndex - right.elementIndex)
    .map((collected) => collected.cue);
  const language = readAttribute(root, "lang", ["http://www.w3.org/XML/1998/namespace"]) || undefined;
  return { format: "opus", ...(language === undefined ? {} : { language }), cues: sortedCues, sentences, droppedCues };
}

function collectEvents(element: XmlElement, sentenceIndex: number, events: OpusEvent[]): void {
  for (const child of element.children) {
    if (typeof child === "string") {
      for (const word of child.split(/\s+/)) {
        if (word.length > 0) events.push({ kind: "token", text: word, sentenceIndex });
      }
    } else if (child.localName === "time") {
      const id = readAttribute(child, "id") ?? "";
      events.push({ kind: "time", isStart: !id.endsWith("E"), milliseconds: parseOpusTime(readAttribute(child, "value")) });
    } else if (child.localName === "w") {
      const word = child.children.filter((grandchild) => typeof grandchild === "string").join("").trim();
      if (word.length > 0) events.push({ kind: "token", text: word, sentenceIndex });
    } else {
      collectEvents(child, sentenceIndex, events);
    }
  }
}

/**
 * SRT-style `hh:mm:ss,mmm` (a dot is accepted too).
 *
 * @example
 * parseOpusTime("00:01:27,720"); // 87720
 */
export function parseOpusTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(\d{1,3}):(\d{1,2}):(\d{1,2})(?:[,.:](\d{1,3}))?\s*$/.exec(value);
  if (match === null) return undefined;
  const fraction = match[4] === undefined ? 0 : Number(match[4].padEnd(3, "0"));
  return (Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3])) * 1000 + fraction;
}

function assignInterpolatedTokenTimes(
  tokens: readonly string[],
  tokenEventIndexes: readonly number[],
  startMilliseconds: number,
  endMilliseconds: number,
  tokenTimes: Map<number, { startMilliseconds: number; endMilliseconds: number }>,
): void {
  const totalCharacters = tokens.reduce((sum, token) => sum + token.length + 1, 0);
  const millisecondsPerCharacter = totalCharacters === 0 ? 0 : (endMilliseconds - startMilliseconds) / totalCharacters;
  let position = 0;
  tokens.forEach((token, index) => {
    const tokenStart = startMilliseconds + position * millisecondsPerCharacter;
    position += token.length + 1;
    tokenTimes.set(tokenEventIndexes[index] as number, {
      startMilliseconds: Math.round(tokenStart),
      endMilliseconds: Math.round(startMilliseconds + position * millisecondsPerCharacter),
    });
  });
}

function buildSentences(
  events: readonly OpusEvent[],
  sentenceIds: readonly string[],
  tokenTimes: Map<number, { startMilliseconds: number; endMilliseconds: number }>,
): SubtitleSentence[] {
  const tokensBySentence: string[][] = sentenceIds.map(() => []);
  const startBySentence: (number | undefined)[] = sentenceIds.map(() => undefined);
  const endBySentence: (number | undefined)[] = sentenceIds.map(() => undefined);
  events.forEach((event, eventIndex) => {
    if (event.kind !== "token") return;
    tokensBySentence[event.sentenceIndex]?.push(event.text);
    const time = tokenTimes.get(eventIndex);
    if (time === undefined) return;
    if (startBySentence[event.sentenceIndex] === undefined) startBySentence[event.sentenceIndex] = time.startMilliseconds;
    endBySentence[event.sentenceIndex] = time.endMilliseconds;
  });
  return sentenceIds.map((id, index) => {
    const startMilliseconds = startBySentence[index];
    const endMilliseconds = endBySentence[index];
    return {
      id,
      text: normalizeCueLines(stripInlineMarkup(detokenizeOpusTokens(tokensBySentence[index] ?? []))),
      ...(startMilliseconds === undefined || endMilliseconds === undefined ? {} : { startMilliseconds, endMilliseconds }),
    };
  });
}
