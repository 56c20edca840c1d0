import { SubtitleParseError } from "./subtitle-parse-error.ts";

const UTF8_BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf] as const;

/**
 * Turns uploaded bytes into text: checks the size, refuses binary data, strips a byte order mark and honours an
 * `encoding=` declaration for UTF-8, UTF-16 and ISO-8859-1/windows-1252 only.
 */
export function decodeSubtitleInput(input: Uint8Array | string, maximumBytes: number): string {
  if (typeof input === "string") {
    // A string of n UTF-16 units is at least n bytes as UTF-8, so this is a cheap lower bound.
    if (input.length > maximumBytes) throw new SubtitleParseError("too-large");
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    rejectControlCharacters(text);
    return text;
  }
  if (input.byteLength > maximumBytes) throw new SubtitleParseError("too-large");
  const text = decodeBytes(input);
  rejectControlCharacters(text);
  return text;
}

function decodeBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  const hasUtf8ByteOrderMark = UTF8_BYTE_ORDER_MARK.every((byte, index) => bytes[index] === byte);
  const body = hasUtf8ByteOrderMark ? bytes.subarray(3) : bytes;
  if (!hasUtf8ByteOrderMark && body[0] === 0x3c && body[1] === 0x00) return new TextDecoder("utf-16le").decode(body);
  if (!hasUtf8ByteOrderMark && body[0] === 0x00 && body[1] === 0x3c) return new TextDecoder("utf-16be").decode(body);
  const declaredEncoding = hasUtf8ByteOrderMark ? "utf-8" : readDeclaredEncoding(body);
  switch (declaredEncoding) {
    case undefined:
    case "utf-8":
    case "utf8":
      return decodeUtf8OrLatin1(body);
    case "iso-8859-1":
    case "latin1":
    case "iso_8859-1":
    case "windows-1252":
    case "cp1252":
    case "us-ascii":
    case "ascii":
      return new TextDecoder("windows-1252").decode(body);
    case "utf-16":
    case "utf-16le":
    case "utf-16be":
      // A UTF-16 document without a byte order mark would have been caught above; this one lies about itself.
      return decodeUtf8OrLatin1(body);
    default:
      throw new SubtitleParseError("unsupported-encoding", `declared encoding "${declaredEncoding}"`);
  }
}

function readDeclaredEncoding(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200));
  if (!head.startsWith("<?xml")) return undefined;
  const declarationEnd = head.indexOf("?>");
  const declaration = declarationEnd === -1 ? head : head.slice(0, declarationEnd);
  const match = /encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(declaration);
  return match?.[1]?.toLowerCase();
}

function decodeUtf8OrLatin1(bytes: Uint8Array): string {
  const containsNul = bytes.includes(0);
  if (containsNul) throw new SubtitleParseError("binary", "NUL byte");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Files saved by old Windows tools claim UTF-8 (or nothing) and are really windows-1252.
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function rejectControlCharacters(text: string): void {
  // C0 controls other than tab, LF and CR never occur in text files, and XML 1.0 forbids them.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const controlCharacter = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.exec(text);
  if (controlCharacter !== null) {
    throw new SubtitleParseError("binary", `control character U+${controlCharacter[0].charCodeAt(0).toString(16).padStart(4, "0")}`);
  }
}
