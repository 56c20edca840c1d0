import { scoreTextEvidence, type TextFeatures } from "./link-evidence.ts";
import { mapTime, temporalIntersectionOverUnion, type SubtitleTimeMap, type TimedSpan } from "./timed-span.ts";

/** The moves (reference segments, other segments) of a link, in the order that breaks ties: 1:1, 1:0, 0:1, 1:2, 2:1, 1:3, 3:1, 2:2. */
export const GROUP_MOVE_REFERENCE_STEPS = Int8Array.of(1, 1, 0, 1, 2, 1, 3, 2);
export const GROUP_MOVE_OTHER_STEPS = Int8Array.of(1, 0, 1, 2, 1, 3, 1, 2);
const GROUP_MOVE_COUNT = GROUP_MOVE_REFERENCE_STEPS.length;
const ONE_TO_ONE_MOVE = 0;

/**
 * The dynamic programme's links in typed arrays, in order: each link's move (an index into the GROUP_MOVE arrays), its
 * overlap (0 for an unmatched segment) and its first index on each side. Links are made of it only for the caller.
 */
export interface BandedPath {
  moves: Int8Array;
  overlaps: Float64Array;
  referenceFrom: Int32Array;
  otherFrom: Int32Array;
}

/** The texts' part of the link score, when the alignment reads it. */
export interface TextEvidence {
  reference: TextFeatures;
  other: TextFeatures;
  lengthRatio: number;
}

/** The link scores of the dynamic programme, with `TimedSegmentAlignmentOptions`' defaults filled in. */
export interface BandedAlignmentScoring {
  bandMilliseconds: number;
  skipScore: number;
  extraSegmentPenalty: number;
}

/** The best-scoring monotonic path of links through both lists, inside a band around `timeMap`. */
export function runBandedAlignmentWithEvidence(
  reference: readonly TimedSpan[],
  other: readonly TimedSpan[],
  timeMap: SubtitleTimeMap,
  { bandMilliseconds, skipScore, extraSegmentPenalty }: BandedAlignmentScoring,
  textEvidence: TextEvidence | undefined,
): BandedPath {
  const referenceCount = reference.length;
  const otherCount = other.length;
  const referenceStarts = new Float64Array(referenceCount);
  const referenceEnds = new Float64Array(referenceCount);
  for (let index = 0; index < referenceCount; index += 1) {
    referenceStarts[index] = (reference[index] as TimedSpan).startMilliseconds;
    referenceEnds[index] = (reference[index] as TimedSpan).endMilliseconds;
  }
  const mappedStarts = new Float64Array(otherCount);
  const mappedEnds = new Float64Array(otherCount);
  for (let index = 0; index < otherCount; index += 1) {
    const span = other[index] as TimedSpan;
    mappedStarts[index] = mapTime(timeMap, span.startMilliseconds);
    mappedEnds[index] = Math.max(mapTime(timeMap, span.endMilliseconds), mappedStarts[index] as number);
  }

  // Row i holds cells (i, j) for j in [low[i], high[i]]: the other segments whose mapped start lies within the band
  // around the start of reference segment i. The extension below keeps every row reachable from the previous one.
  const low = new Int32Array(referenceCount + 1);
  const high = new Int32Array(referenceCount + 1);
  let lowPointer = 0;
  let highPointer = 0;
  for (let row = 0; row <= referenceCount; row += 1) {
    const anchor = row < referenceCount ? (referenceStarts[row] as number) : Number.POSITIVE_INFINITY;
    while (lowPointer < otherCount && (mappedStarts[lowPointer] as number) < anchor - bandMilliseconds) lowPointer += 1;
    while (highPointer < otherCount && (mappedStarts[highPointer] as number) <= anchor + bandMilliseconds) highPointer += 1;
    low[row] = row === 0 ? 0 : Math.max(low[row - 1] as number, lowPointer);
    high[row] = row === referenceCount ? otherCount : Math.max(highPointer, low[row] as number);
  }
  for (let row = referenceCount - 1; row >= 0; row -= 1) {
    high[row] = Math.max(high[row] as number, low[row + 1] as number);
  }
  for (let row = 1; row <= referenceCount; row += 1) {
    high[row] = Math.max(high[row] as number, high[row - 1] as number);
  }
  // Cell (i, j) is at rowOrigin[i] + j.
  const rowOrigin = new Int32Array(referenceCount + 1);
  let cellCount = 0;
  for (let row = 0; row <= referenceCount; row += 1) {
    rowOrigin[row] = cellCount - (low[row] as number);
    cellCount += (high[row] as number) - (low[row] as number) + 1;
  }
  const scores = new Float64Array(cellCount).fill(Number.NEGATIVE_INFINITY);
  const moves = new Int8Array(cellCount).fill(-1);
  const cellIndex = (row: number, column: number) => (column < (low[row] as number) || column > (high[row] as number) ? -1 : (rowOrigin[row] as number) + column);

  scores[0] = 0;
  for (let row = 0; row <= referenceCount; row += 1) {
    const rowLow = low[row] as number;
    const rowHigh = high[row] as number;
    for (let column = rowLow; column <= rowHigh; column += 1) {
      if (row === 0 && column === 0) continue;
      let bestScore = Number.NEGATIVE_INFINITY;
      let bestMove = -1;
      // Written out rather than calling out per move: this loop runs for every cell and move of three alignments.
      for (let moveIndex = 0; moveIndex < GROUP_MOVE_COUNT; moveIndex += 1) {
        const referenceStep = GROUP_MOVE_REFERENCE_STEPS[moveIndex] as number;
        const otherStep = GROUP_MOVE_OTHER_STEPS[moveIndex] as number;
        const previousRow = row - referenceStep;
        const previousColumn = column - otherStep;
        if (previousRow < 0 || previousColumn < 0) continue;
        if (previousColumn < (low[previousRow] as number) || previousColumn > (high[previousRow] as number)) continue;
        const previousScore = scores[(rowOrigin[previousRow] as number) + previousColumn] as number;
        if (previousScore === Number.NEGATIVE_INFINITY) continue;
        let stepScore: number;
        if (referenceStep === 0 || otherStep === 0) {
          stepScore = skipScore;
        } else {
          // The temporal IoU of the two groups (`groupOverlap`).
          let referenceStart = Number.POSITIVE_INFINITY;
          let referenceEnd = Number.NEGATIVE_INFINITY;
          for (let index = previousRow; index < row; index += 1) {
            referenceStart = Math.min(referenceStart, referenceStarts[index] as number);
            referenceEnd = Math.max(referenceEnd, referenceEnds[index] as number);
          }
          let otherStart = Number.POSITIVE_INFINITY;
          let otherEnd = Number.NEGATIVE_INFINITY;
          for (let index = previousColumn; index < column; index += 1) {
            otherStart = Math.min(otherStart, mappedStarts[index] as number);
            otherEnd = Math.max(otherEnd, mappedEnds[index] as number);
          }
          const intersection = Math.min(referenceEnd, otherEnd) - Math.max(referenceStart, otherStart);
          // A link with no shared time is never better than leaving both sides unmatched.
          if (intersection <= 0) {
            stepScore = Number.NEGATIVE_INFINITY;
          } else {
            const overlap = intersection / (Math.max(referenceEnd, otherEnd) - Math.min(referenceStart, otherStart));
            stepScore = overlap - extraSegmentPenalty * (referenceStep + otherStep - 2);
            if (textEvidence !== undefined) {
              stepScore += scoreTextEvidence(textEvidence.reference, textEvidence.other, textEvidence.lengthRatio, previousRow, row, previousColumn, column);
            }
          }
        }
        const candidate = previousScore + stepScore;
        if (candidate > bestScore) {
          bestScore = candidate;
          bestMove = moveIndex;
        }
      }
      const cell = (rowOrigin[row] as number) + column;
      scores[cell] = bestScore;
      moves[cell] = bestMove;
    }
  }

  // Traced back from the end, so the path is written from the back of arrays long enough for any path.
  const longestPath = referenceCount + otherCount;
  const pathMoves = new Int8Array(longestPath);
  const pathOverlaps = new Float64Array(longestPath);
  const pathReferenceFrom = new Int32Array(longestPath);
  const pathOtherFrom = new Int32Array(longestPath);
  let pathStart = longestPath;
  let row = referenceCount;
  let column = otherCount;
  while (row > 0 || column > 0) {
    const move = moves[cellIndex(row, column)] as number;
    if (move < 0) throw new Error("runBandedAlignment lost its path; the band construction has a bug.");
    const referenceStep = GROUP_MOVE_REFERENCE_STEPS[move] as number;
    const otherStep = GROUP_MOVE_OTHER_STEPS[move] as number;
    pathStart -= 1;
    pathMoves[pathStart] = move;
    pathOverlaps[pathStart] =
      referenceStep === 0 || otherStep === 0 ? 0 : groupOverlap(referenceStarts, referenceEnds, mappedStarts, mappedEnds, row - referenceStep, row, column - otherStep, column);
    row -= referenceStep;
    column -= otherStep;
    pathReferenceFrom[pathStart] = row;
    pathOtherFrom[pathStart] = column;
  }
  return {
    moves: pathMoves.subarray(pathStart),
    overlaps: pathOverlaps.subarray(pathStart),
    referenceFrom: pathReferenceFrom.subarray(pathStart),
    otherFrom: pathOtherFrom.subarray(pathStart),
  };
}

/** The 1:1 links of a path whose overlap is above `minimumOverlap`, in order: the anchors a map is fitted on. */
export function findOneToOneAnchors(path: BandedPath, minimumOverlap: number): { referenceIndexes: number[]; otherIndexes: number[] } {
  const referenceIndexes: number[] = [];
  const otherIndexes: number[] = [];
  for (let index = 0; index < path.moves.length; index += 1) {
    if (path.moves[index] === ONE_TO_ONE_MOVE && (path.overlaps[index] as number) > minimumOverlap) {
      referenceIndexes.push(path.referenceFrom[index] as number);
      otherIndexes.push(path.otherFrom[index] as number);
    }
  }
  return { referenceIndexes, otherIndexes };
}

function groupOverlap(
  referenceStarts: Float64Array,
  referenceEnds: Float64Array,
  mappedStarts: Float64Array,
  mappedEnds: Float64Array,
  referenceFrom: number,
  referenceTo: number,
  otherFrom: number,
  otherTo: number,
): number {
  let referenceStart = Number.POSITIVE_INFINITY;
  let referenceEnd = Number.NEGATIVE_INFINITY;
  for (let index = referenceFrom; index < referenceTo; index += 1) {
    referenceStart = Math.min(referenceStart, referenceStarts[index] as number);
    referenceEnd = Math.max(referenceEnd, referenceEnds[index] as number);
  }
  let otherStart = Number.POSITIVE_INFINITY;
  let otherEnd = Number.NEGATIVE_INFINITY;
  for (let index = otherFrom; index < otherTo; index += 1) {
    otherStart = Math.min(otherStart, mappedStarts[index] as number);
    otherEnd = Math.max(otherEnd, mappedEnds[index] as number);
  }
  return temporalIntersectionOverUnion(
    { startMilliseconds: referenceStart, endMilliseconds: referenceEnd },
    { startMilliseconds: otherStart, endMilliseconds: otherEnd },
  );
}
