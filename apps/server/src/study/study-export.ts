/** One exported card: the pair's text and this learner's box. */
export type ExportedCard = { english: string; swedish: string; box: number };

const formulaTriggers = new Set(["=", "+", "-", "@", "\t", "\r"]);

/** A cell a spreadsheet would run as a formula (= + - @, or a leading tab or CR) is prefixed with a quote. */
function neutralizeFormula(text: string): string {
  return formulaTriggers.has(text.charAt(0)) ? `'${text}` : text;
}

function csvCell(text: string): string {
  const safe = neutralizeFormula(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * RFC 4180 CSV (CRLF line ends, quotes doubled) with the header `english,swedish,box`.
 *
 * @example
 * formatCardsAsCsv([{ english: "Hi, you", swedish: "Hej", box: 2 }]); // 'english,swedish,box\r\n"Hi, you",Hej,2\r\n'
 */
export function formatCardsAsCsv(cards: readonly ExportedCard[]): string {
  const lines = ["english,swedish,box", ...cards.map((card) => `${csvCell(card.english)},${csvCell(card.swedish)},${card.box}`)];
  return `${lines.join("\r\n")}\r\n`;
}

function tsvField(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ").trim();
}

/**
 * Anki's plain-text import: file headers (`#separator:tab`, `#html:false` so `<` stays text), then
 * `english<TAB>swedish<TAB>box` per card, tabs and line breaks inside the text turned into spaces.
 *
 * @example
 * formatCardsForAnki([{ english: "Hi", swedish: "Hej", box: 1 }]); // "#separator:tab\n#html:false\nHi\tHej\t1\n"
 */
export function formatCardsForAnki(cards: readonly ExportedCard[]): string {
  const lines = ["#separator:tab", "#html:false", ...cards.map((card) => `${tsvField(card.english)}\t${tsvField(card.swedish)}\t${card.box}`)];
  return `${lines.join("\n")}\n`;
}

/** A file name safe in a quoted Content-Disposition: letters, digits, space, dot, dash and underscore only. */
export function safeFileName(name: string): string {
  const safe = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9 ._-]+/g, "_")
    .replace(/^[ ._]+|[ ._]+$/g, "")
    .slice(0, 80);
  return safe === "" ? "flashcards" : safe;
}
