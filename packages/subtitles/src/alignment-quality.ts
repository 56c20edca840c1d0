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

/**
 * Lax link precision, recall and F1 (ARCADE's "lax" measure): a predicted link counts when it shares at least one
 * source and one target id with a single reference link, and a reference link is found when some predicted link does.
 *
 * @example
 * scoreAlignmentLinksLax([{ sourceIds: ["1", "2"], targetIds: ["1"] }], [{ sourceIds: ["1"], targetIds: ["1"] }]).f1; // 1
 */
export function scoreAlignmentLinksLax(
  predicted: readonly IdentifiedAlignmentLink[],
  reference: readonly IdentifiedAlignmentLink[],
): AlignmentLinkScores {
  const nonEmpty = (link: IdentifiedAlignmentLink) => link.sourceIds.length > 0 && link.targetIds.length > 0;
  const predictedLinks = predicted.filter(nonEmpty);
  const referenceLinks = reference.filter(nonEmpty);
  // Each (source, target) id pair of the reference, with the reference link it belongs to.
  const referenceLinkByIdPair = new Map<string, number>();
  referenceLinks.forEach((link, index) => {
    for (const source of link.sourceIds) for (const target of link.targetIds) referenceLinkByIdPair.set(`${source};${target}`, index);
  });
  const foundReferenceLinks = new Set<number>();
  let correctPredictions = 0;
  for (const link of predictedLinks) {
    let correct = false;
    for (const source of link.sourceIds) {
      for (const target of link.targetIds) {
        const referenceIndex = referenceLinkByIdPair.get(`${source};${target}`);
        if (referenceIndex !== undefined) {
          correct = true;
          foundReferenceLinks.add(referenceIndex);
        }
      }
    }
    if (correct) correctPredictions += 1;
  }
  const precision = predictedLinks.length === 0 ? 0 : correctPredictions / predictedLinks.length;
  const recall = referenceLinks.length === 0 ? 0 : foundReferenceLinks.size / referenceLinks.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/**
 * Cards that hold two sentences of one side which the reference links to different partners: the mistake a learner
 * sees as "two sentences on one card" (links with an empty side in the reference are not partners).
 */
export function findCardsJoiningSeparatelyLinkedSentences(
  predicted: readonly IdentifiedAlignmentLink[],
  reference: readonly IdentifiedAlignmentLink[],
): IdentifiedAlignmentLink[] {
  const twoSided = reference.filter((link) => link.sourceIds.length > 0 && link.targetIds.length > 0);
  const sourceLink = new Map<string, number>();
  const targetLink = new Map<string, number>();
  twoSided.forEach((link, index) => {
    for (const id of link.sourceIds) sourceLink.set(id, index);
    for (const id of link.targetIds) targetLink.set(id, index);
  });
  const distinctLinks = (ids: readonly string[], linkOf: Map<string, number>) => new Set(ids.map((id) => linkOf.get(id)).filter((index) => index !== undefined)).size;
  return predicted.filter((link) => distinctLinks(link.sourceIds, sourceLink) > 1 || distinctLinks(link.targetIds, targetLink) > 1);
}

/**
 * The ids of a file's own sentences (OPUS `<s id>`) that each of the segmented sentences holds, for scoring the
 * sentences `segmentCuesIntoSentences` reads from the same file's cues against a reference that names the file's
 * sentences: each marked sentence goes to the segmented sentence that shares most of its time (both are timed by
 * their characters' share of the same cues). Lists are in time order; a marked sentence outside every segmented
 * one is left out.
 *
 * @example
 * assignMarkedSentenceIds(alignment.sentences.english, parsedEnglish.sentences ?? []); // [["1"], ["2", "3"], …]
 */
export function assignMarkedSentenceIds(
  segmented: readonly { startMilliseconds: number; endMilliseconds: number }[],
  marked: readonly { id: string; startMilliseconds?: number; endMilliseconds?: number }[],
): string[][] {
  const ids = segmented.map((): string[] => []);
  const timed = marked
    .filter((sentence) => sentence.startMilliseconds !== undefined && sentence.endMilliseconds !== undefined)
    .sort((left, right) => (left.startMilliseconds as number) - (right.startMilliseconds as number));
  // Segmented sentences may overlap a little (a cue's pieces, overlapping cues), so the sweep keeps a margin behind.
  const lookBehindMilliseconds = 60_000;
  let firstCandidate = 0;
  for (const sentence of timed) {
    const start = sentence.startMilliseconds as number;
    const end = Math.max(sentence.endMilliseconds as number, start + 1);
    while (firstCandidate < segmented.length && (segmented[firstCandidate] as { endMilliseconds: number }).endMilliseconds <= start - lookBehindMilliseconds) firstCandidate += 1;
    let best = -1;
    let bestShared = 0;
    for (let index = firstCandidate; index < segmented.length; index += 1) {
      const candidate = segmented[index] as { startMilliseconds: number; endMilliseconds: number };
      if (candidate.startMilliseconds >= end) break;
      const shared = Math.min(end, candidate.endMilliseconds) - Math.max(start, candidate.startMilliseconds);
      if (shared > bestShared) {
        bestShared = shared;
        best = index;
      }
    }
    if (best !== -1) (ids[best] as string[]).push(sentence.id);
  }
  return ids;
}
