const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * Decodes entity references that survived one XML decoding pass, as in YouTube's double-escaped `&amp;#39;`.
 * Only character references and the five XML names (plus `&nbsp;`) are decoded; nothing can expand.
 *
 * @example
 * decodeDoubleEscapedEntities("I&#39;m"); // "I'm"
 */
export function decodeDoubleEscapedEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]{2,6});/g, (reference, name: string) => {
    if (name.startsWith("#")) {
      const codePoint = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return isAllowedCodePoint(codePoint) ? String.fromCodePoint(codePoint) : reference;
    }
    return NAMED_ENTITIES[name] ?? reference;
  });
}

function isAllowedCodePoint(codePoint: number): boolean {
  if (!Number.isInteger(codePoint) || codePoint > 0x10ffff) return false;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return false;
  return codePoint === 0x9 || codePoint === 0xa || codePoint === 0xd || codePoint >= 0x20;
}

// Subtitle text carries presentation markup as text (`<i>`, `{\an8}`); cards show plain text, so it goes.
const INLINE_MARKUP = /<\/?(?:i|b|u|s|em|strong|font|span|c)(?:\s[^<>]*)?\/?>|\{\\[^{}]*\}/gi;

/** Removes markup-like fragments that subtitle authors type into the text itself. */
export function stripInlineMarkup(text: string): string {
  return text.replace(INLINE_MARKUP, "");
}

/**
 * Collapses white space inside lines, trims each line and drops empty lines; lines stay separated by "\n".
 *
 * @example
 * normalizeCueLines("  Hello \n\n  world  "); // "Hello\nworld"
 */
export function normalizeCueLines(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter((line) => line.length > 0)
    .join("\n");
}

const DIALOGUE_DASH = "[-‐‑–—]";
const LEADING_DIALOGUE_DASHES = new RegExp(`^(?:${DIALOGUE_DASH}\\s*)+`);
/** A dash that opens the next speaker's line inside one cue: after the end of a sentence, with space around it. */
const SPEAKER_CHANGE_DASHES = new RegExp(`([.!?…"'”»)])(?:\\s+${DIALOGUE_DASH})+\\s+`, "g");

/**
 * Removes the dashes that mark who speaks ("- Hej. - Hej då.", "- - Vad?", a line of its own starting with "–"):
 * they belong to the subtitle, not to the sentence a learner studies. Hyphens inside words and a dash that marks a
 * pause inside a sentence ("Jag – jag vet inte") stay.
 *
 * @example
 * removeDialogueDashes("- Kommer du?\n- Ja, jag kommer."); // "Kommer du?\nJa, jag kommer."
 * removeDialogueDashes("- Hej. - Hej då."); // "Hej. Hej då."
 */
export function removeDialogueDashes(text: string): string {
  return text
    .split("\n")
    .map(removeDialogueDashesFromLine)
    .filter((line) => line.length > 0)
    .join("\n");
}

const ANY_DIALOGUE_DASH = new RegExp(DIALOGUE_DASH);

/** `removeDialogueDashes` for one line (no "\n"), trimmed; "" when nothing is left. */
export function removeDialogueDashesFromLine(line: string): string {
  // Most lines have no dash at all: nothing to replace, only to trim.
  if (!ANY_DIALOGUE_DASH.test(line)) return line.trim();
  return line.replace(LEADING_DIALOGUE_DASHES, "").replace(SPEAKER_CHANGE_DASHES, "$1 ").trim();
}

const ATTACH_TO_PREVIOUS = /^(?:[.,!?;:%)\]}»”…]+|\.\.\.|'(?:s|ll|re|ve|d|m|t)|n't|'S|'LL|'RE|'VE|'D|'M|N'T)$/;
const ATTACH_TO_NEXT = /^[([{«“¿¡]$/;

/**
 * Joins OPUS tokens back into text ("Framåt , Chauncey !" becomes "Framåt, Chauncey!").
 *
 * @example
 * detokenizeOpusTokens(["He", "'ll", "come", "."]); // "He'll come."
 */
export function detokenizeOpusTokens(tokens: readonly string[]): string {
  let text = "";
  let attachNext = true;
  let openStraightQuote = false;
  for (const token of tokens) {
    if (token.length === 0) continue;
    let attach = attachNext || ATTACH_TO_PREVIOUS.test(token);
    attachNext = ATTACH_TO_NEXT.test(token);
    if (token === '"') {
      // A straight quote opens and closes in turn: no space after an opening one, none before a closing one.
      if (openStraightQuote) attach = true;
      else attachNext = true;
      openStraightQuote = !openStraightQuote;
    }
    text += attach ? token : ` ${token}`;
  }
  return text;
}

const SENTENCE_FINAL = /(?:[.!?]["”»')\]]*|♪)$/;
// In subtitles a trailing ellipsis means "continued in the next subtitle", not the end of a sentence.
const CONTINUATION = /(?:\.\.\.|…)["”»')\]]*$/;

/** Whether a line of text ends a sentence (`.`, `!`, `?`, `…`, or a closing quote after one). */
export function endsWithSentenceFinalPunctuation(text: string): boolean {
  const trimmed = text.trimEnd();
  return SENTENCE_FINAL.test(trimmed) && !CONTINUATION.test(trimmed);
}
