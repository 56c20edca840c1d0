/** A link between sentence or cue ids of two tracks, as in an XCES `cesAlign` file. */
export interface IdentifiedAlignmentLink {
  sourceIds: string[];
  targetIds: string[];
}

export interface AlignmentLinkScores {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Reads the `<link xtargets="1 2;3">` elements of an XCES alignment with a pattern, not an XML parser, because the
 * OPUS files are often malformed (`score="…"">`) yet still useful as a reference.
 *
 * @example
 * readCesAlignLinks('<link xtargets="1 2;3" />'); // [{ sourceIds: ["1", "2"], targetIds: ["3"] }]
 */
export function readCesAlignLinks(cesAlignText: string): IdentifiedAlignmentLink[] {
  const links: IdentifiedAlignmentLink[] = [];
  for (const match of cesAlignText.matchAll(/<link\b[^>]*\bxtargets="([^"]*)"/g)) {
    const [sourcePart = "", targetPart = ""] = (match[1] ?? "").split(";");
    links.push({ sourceIds: splitIds(sourcePart), targetIds: splitIds(targetPart) });
  }
  return links;
}

function splitIds(part: string): string[] {
  return part.split(/\s+/).filter((id) => id.length > 0);
}

function linkKey(link: IdentifiedAlignmentLink): string {
  return `${link.sourceIds.join(" ")};${link.targetIds.join(" ")}`;
}

/**
 * Strict link precision, recall and F1: a predicted link counts only if a reference link has exactly the same ids on
 * both sides. Links with an empty side are left out, as in the OPUS evaluations.
 *
 * @example
 * scoreAlignmentLinks(predicted, readCesAlignLinks(goldText)).f1; // 0.96
 */
export function scoreAlignmentLinks(
  predicted: readonly IdentifiedAlignmentLink[],
  reference: readonly IdentifiedAlignmentLink[],
): AlignmentLinkScores {
  const nonEmpty = (link: IdentifiedAlignmentLink) => link.sourceIds.length > 0 && link.targetIds.length > 0;
  const predictedKeys = new Set(predicted.filter(nonEmpty).map(linkKey));
  const referenceKeys = new Set(reference.filter(nonEmpty).map(linkKey));
  let matches = 0;
  for (const key of predictedKeys) if (referenceKeys.has(key)) matches += 1;
  const precision = predictedKeys.size === 0 ? 0 : matches / predictedKeys.size;
  const recall = referenceKeys.size === 0 ? 0 : matches / referenceKeys.size;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
