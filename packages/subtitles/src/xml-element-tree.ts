import { SaxesParser } from "saxes";
import { SubtitleParseError } from "./subtitle-parse-error.ts";
import type { SubtitleParseLimits } from "./subtitle-types.ts";

/** The attribute objects saxes creates, kept as they are to avoid copying tens of thousands of them. */
export interface XmlAttribute {
  name: string;
  prefix: string;
  local: string;
  uri: string;
  value: string;
}

export interface XmlElement {
  localName: string;
  namespaceUri: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
}

/** Text is a plain string with entities already decoded. */
export type XmlNode = XmlElement | string;

export const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";

// Elements are small but not free; 5 MB of `<a/>` would otherwise become a million objects.
const MAXIMUM_ELEMENT_COUNT = 500_000;
const CUE_ELEMENT_NAMES = new Set(["p", "text"]);

const PREFIXES_COMMONLY_LEFT_UNDECLARED: Record<string, string> = {
  tt: "http://www.w3.org/ns/ttml",
  ttp: "http://www.w3.org/ns/ttml#parameter",
  tts: "http://www.w3.org/ns/ttml#styling",
  ttm: "http://www.w3.org/ns/ttml#metadata",
};

/**
 * Refuses documents that declare entities or carry an internal DTD subset. Subtitle formats never need one, and it
 * is the door for "billion laughs" and external entities; a DOCTYPE with only a public id is harmless.
 */
export function rejectEntityDeclarations(xmlText: string): void {
  if (/<!ENTITY/i.test(xmlText)) throw new SubtitleParseError("entity-declaration");
  if (/<!DOCTYPE[^>[]*\[/i.test(xmlText)) throw new SubtitleParseError("entity-declaration", "internal DTD subset");
}

/**
 * Builds a namespace-aware element tree with saxes, aborting as soon as a limit is crossed, so hostile input costs
 * at most one pass over the text.
 */
export function readXmlElementTree(xmlText: string, limits: SubtitleParseLimits): XmlElement {
  rejectEntityDeclarations(xmlText);
  const parser = new SaxesParser({
    xmlns: true,
    position: false,
    resolvePrefix: (prefix: string) =>
      prefix === "" ? "" : (PREFIXES_COMMONLY_LEFT_UNDECLARED[prefix] ?? `urn:undeclared-prefix:${prefix}`),
  });
  const openElements: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elementCount = 0;
  let cueElementCount = 0;
  let totalTextLength = 0;

  parser.on("opentag", (tag) => {
    if (openElements.length >= limits.maximumDepth) {
      throw new SubtitleParseError("too-deep", `more than ${limits.maximumDepth} levels`);
    }
    elementCount += 1;
    if (elementCount > MAXIMUM_ELEMENT_COUNT) throw new SubtitleParseError("too-large", "too many elements");
    const localName = tag.local;
    if (CUE_ELEMENT_NAMES.has(localName)) {
      cueElementCount += 1;
      if (cueElementCount > limits.maximumCues) {
        throw new SubtitleParseError("too-many-cues", `more than ${limits.maximumCues}`);
      }
    }
    const attributes: XmlAttribute[] = Object.values(tag.attributes);
    for (const attribute of attributes) {
      if (attribute.value.length > limits.maximumAttributeValueLength) {
        throw new SubtitleParseError("too-large", `attribute ${attribute.name} is too long`);
      }
    }
    if (attributes.length > limits.maximumAttributesPerElement) {
      throw new SubtitleParseError("too-large", `element ${tag.name} has too many attributes`);
    }
    const element: XmlElement = { localName, namespaceUri: tag.uri, attributes, children: [] };
    const parent = openElements.at(-1);
    if (parent === undefined) root = element;
    else parent.children.push(element);
    if (!tag.isSelfClosing) openElements.push(element);
  });
  parser.on("closetag", (tag) => {
    if (!tag.isSelfClosing) openElements.pop();
  });
  const appendText = (text: string) => {
    const parent = openElements.at(-1);
    if (parent === undefined) return;
    totalTextLength += text.length;
    if (totalTextLength > limits.maximumTotalTextLength) throw new SubtitleParseError("too-large", "too much text");
    const previous = parent.children.at(-1);
    if (typeof previous === "string") parent.children[parent.children.length - 1] = previous + text;
    else parent.children.push(text);
  };
  parser.on("text", appendText);
  parser.on("cdata", appendText);

  try {
    parser.write(xmlText).close();
  } catch (error) {
    if (error instanceof SubtitleParseError) throw error;
    throw new SubtitleParseError("not-xml", error instanceof Error ? firstLine(error.message) : undefined);
  }
  if (root === undefined) throw new SubtitleParseError("not-xml", "no root element");
  return root;
}

function firstLine(message: string): string {
  return message.split("\n", 1)[0] ?? message;
}

/** The value of an attribute by local name, accepting any of the given namespaces ("" is no namespace). */
export function readAttribute(
  element: XmlElement,
  localName: string,
  namespaceUris: readonly string[] = [""],
): string | undefined {
  for (const attribute of element.attributes) {
    if (attribute.local === localName && namespaceUris.includes(attribute.uri)) return attribute.value;
  }
  return undefined;
}

/** Like `readAttribute`, but any namespace whose URI ends with the given suffix matches (e.g. "#parameter"). */
export function readAttributeByNamespaceSuffix(
  element: XmlElement,
  localName: string,
  namespaceSuffix: string,
): string | undefined {
  for (const attribute of element.attributes) {
    if (attribute.local === localName && attribute.uri.endsWith(namespaceSuffix)) return attribute.value;
  }
  return undefined;
}

export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== "string");
}

/** Depth-first, document order; the tree is at most `maximumDepth` deep, so recursion is bounded. */
export function* descendantElements(element: XmlElement): Generator<XmlElement> {
  for (const child of element.children) {
    if (typeof child === "string") continue;
    yield child;
    yield* descendantElements(child);
  }
}
