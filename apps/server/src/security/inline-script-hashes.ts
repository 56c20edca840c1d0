import { createHash } from "node:crypto";

const inlineScriptPattern = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * The CSP `sha256-…` sources of every inline `<script>` in an HTML document (scripts with `src` are skipped).
 *
 * @example
 * findInlineScriptHashes("<script>window.x=1</script>"); // ["sha256-…"]
 */
export function findInlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(inlineScriptPattern)) {
    const attributes = match[1] ?? "";
    const content = match[2] ?? "";
    if (/\bsrc\s*=/i.test(attributes) || content === "") {
      continue;
    }
    hashes.add(`sha256-${createHash("sha256").update(content, "utf8").digest("base64")}`);
  }
  return [...hashes];
}
