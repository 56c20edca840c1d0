const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as it can be stored: half of a UTF-16 surrogate pair (JSON's `"\ud800"`) is no character, and each database
 * would store another replacement of its own (SQLite three, PostgreSQL one); here it is one U+FFFD before any check, so
 * that what a request is answered with is what was stored.
 *
 * @example
 * wellFormedText("A\ud800B"); // "A\uFFFDB"
 */
export function wellFormedText(value: string): string {
  return value.replace(loneSurrogates, "\uFFFD");
}

// Bidi marks, embeddings, overrides and isolates, and zero-width characters: invisible, they can make a text read as
// another ("Film\u202Egpj.exe" shows as "Filmexe.jpg"). A zero-width joiner between two emoji is kept: it is what makes
// 👨‍👩‍👧 one family rather than three faces.
const invisibleCharacters = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const emojiBefore = /\p{Extended_Pictographic}(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0F)?$/u;
const emojiAfter = /^\p{Extended_Pictographic}/u;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const controlCharactersButLineBreaksAndTabs = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]+/g;

function withoutInvisibleCharacters(value: string): string {
  return wellFormedText(value).replace(invisibleCharacters, (character, offset: number, whole: string) =>
    // An emoji is two UTF-16 units, and three with a skin tone or a presentation selector after it.
    character === "\u200d" && emojiBefore.test(whole.slice(Math.max(0, offset - 4), offset)) && emojiAfter.test(whole.slice(offset + 1, offset + 3)) ? character : "",
  );
}

/**
 * A name or a line a person typed, as it is stored and shown: well formed, without invisible characters, control
 * characters and line breaks as spaces, runs of space as one, trimmed. Group names, a pair's sides, a contact's name.
 *
 * @example
 * oneLineText(" Film\u202Egpj.exe\u0007 👨\u200d👩\u200d👧 "); // "Filmgpj.exe 👨‍👩‍👧"
 */
export function oneLineText(value: string): string {
  return withoutInvisibleCharacters(value).replace(controlCharacters, " ").replace(/\s+/g, " ").trim();
}

/**
 * A message a person wrote, as it is stored and mailed: like `oneLineText`, but its line breaks and tabs kept (a
 * carriage return and line feed as one line feed) and its lines' spaces as typed.
 *
 * @example
 * manyLinesText("Hello,\r\n\u202Ethe blue one?\u0007 "); // "Hello,\nthe blue one?"
 */
export function manyLinesText(value: string): string {
  return withoutInvisibleCharacters(value).replace(/\r\n?|[\u2028\u2029]/g, "\n").replace(controlCharactersButLineBreaksAndTabs, " ").trim();
}
