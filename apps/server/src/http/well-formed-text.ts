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
