// `pnpm bench`: parse and alignment time and memory across sizes (synthetic files and pairs of 250 to 20,000 cues),
// parse time per fixture and the en–et film pair; writes bench-results/subtitles.json. Each measured case runs in its
// own child process so that its memory (peak RSS and heap deltas from just before the call) is its own.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSeededRandom, writeBenchResult, type BenchFigures } from "@atelier/bench";
import { alignSubtitleTracks, type SubtitleAlignment } from "../src/align-subtitle-tracks.ts";
import { assignMarkedSentenceIds, findCardsJoiningSeparatelyLinkedSentences, readCesAlignLinks, scoreAlignmentLinks, scoreAlignmentLinksLax, type IdentifiedAlignmentLink } from "../src/alignment-quality.ts";
import { alignSubtitleTracksInWorker, closeSubtitleParseWorkers } from "../src/parse-subtitle-xml-in-worker.ts";
import { parseSubtitleXml } from "../src/parse-subtitle-xml.ts";
import { DEFAULT_SUBTITLE_PARSE_LIMITS, type SubtitleCue } from "../src/subtitle-types.ts";
import { readOwnSubtitleFixture } from "../src/test-support/shared-subtitle-fixtures.ts";
import { createSyntheticPair } from "../src/test-support/synthetic-subtitle-pair.ts";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixtureDirectory = path.resolve(packageDirectory, "../../../shared/fixtures/subtitles");

/** The sizes of the scaling curves; 20,000 is the parser's default cue limit. */
const scalingCueCounts = (process.env.BENCH_SUBTITLE_SIZES ?? "250,1000,2000,5000,10000,20000").split(",").map(Number);

/** A TTML file of a film's dialogue: one `<p>` per cue, some with a line break or an italic span, as exported subtitles are. */
function createSyntheticTtml(cueCount: number): string {
  const random = createSeededRandom(cueCount + 1);
  const clock = (milliseconds: number) => {
    const hours = Math.floor(milliseconds / 3_600_000);
    const minutes = Math.floor(milliseconds / 60_000) % 60;
    const seconds = (milliseconds % 60_000) / 1000;
    return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}:${seconds.toFixed(3).padStart(6, "0")}`;
  };
  const paragraphs: string[] = [];
  let time = 60_000;
  for (let index = 0; index < cueCount; index += 1) {
    const duration = Math.round(900 + random() * 4_000);
    const text = index % 7 === 0 ? `<span tts:fontStyle="italic">Line ${index}, whispered</span>` : index % 3 === 0 ? `Line ${index} of the film,<br/>said twice.` : `Line ${index} of the film.`;
    paragraphs.push(`      <p begin="${clock(time)}" end="${clock(time + duration)}">${text}</p>`);
    time += duration + Math.round(100 + random() * 3_000);
  }
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="en">`,
    `  <body>`,
    `    <div>`,
    ...paragraphs,
    `    </div>`,
    `  </body>`,
    `</tt>`,
    "",
  ].join("\n");
}

function loadRealFilmPair(): { english: SubtitleCue[]; swedish: SubtitleCue[] } {
  return {
    english: parseSubtitleXml(readFileSync(path.join(fixtureDirectory, "opensubs2018-209475.en.54828.xml"))).cues,
    swedish: parseSubtitleXml(readFileSync(path.join(fixtureDirectory, "opensubs2018-209475.et.3123721.xml"))).cues,
  };
}

interface MemoryBaseline {
  residentBytes: number;
  heapBytes: number;
}

function takeMemoryBaseline(): MemoryBaseline {
  // Twice: the first collection can leave garbage that only the second one frees.
  globalThis.gc?.();
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return { residentBytes: usage.rss, heapBytes: usage.heapUsed };
}

/** Peak RSS since the baseline, and the heap still held (the result is alive) after a full collection. */
function measureMemorySince(baseline: MemoryBaseline): { peakRssDeltaBytes: number; retainedHeapBytes: number } {
  const peakRssDeltaBytes = Math.max(0, process.resourceUsage().maxRSS * 1024 - baseline.residentBytes);
  globalThis.gc?.();
  return { peakRssDeltaBytes, retainedHeapBytes: process.memoryUsage().heapUsed - baseline.heapBytes };
}

function bestOf(runs: number, run: () => void): number {
  const durations: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    run();
    durations.push(performance.now() - started);
  }
  return Math.min(...durations);
}

/** Runs in a child process: parses one file, prints its figures as JSON. */
function runParseCaseInThisProcess(filePath: string): void {
  const bytes = readFileSync(filePath);
  const baseline = takeMemoryBaseline();
  const started = performance.now();
  const track = parseSubtitleXml(bytes);
  const coldMilliseconds = performance.now() - started;
  const memory = measureMemorySince(baseline);
  const warmMilliseconds = bestOf(5, () => parseSubtitleXml(bytes));
  process.stdout.write(JSON.stringify({ cues: track.cues.length, bytes: bytes.byteLength, coldMilliseconds, warmMilliseconds, ...memory }));
}

/**
 * The card-level quality of the real film against OPUS's published sentence alignment, as an upload makes the cards:
 * with the sentences the OPUS files mark, and read as cues only (as a TTML or YouTube upload is, the sentences found by
 * `segmentCuesIntoSentences` and mapped back to OPUS's sentence ids by time). Each alignment is timed warm, best of 3.
 */
interface CardQuality {
  englishSentences: number;
  swedishSentences: number;
  cards: number;
  multiSentenceCardShare: number;
  strictF1: number;
  laxF1: number;
  cardsJoiningSeparatelyLinkedSentences: number;
  lowConfidenceCards: number;
  warmMilliseconds: number;
}

function scoreRealFilmCards(): { marked: CardQuality; cuesOnly: CardQuality } {
  const english = parseSubtitleXml(readFileSync(path.join(fixtureDirectory, "opensubs2018-209475.en.54828.xml")));
  const estonian = parseSubtitleXml(readFileSync(path.join(fixtureDirectory, "opensubs2018-209475.et.3123721.xml")));
  const reference = readCesAlignLinks(readFileSync(path.join(fixtureDirectory, "opensubs2018-209475.en-et.align.xml"), "utf8"));
  const score = (alignment: SubtitleAlignment, cards: IdentifiedAlignmentLink[], warmMilliseconds: number): CardQuality => ({
    englishSentences: alignment.sentences.english.length,
    swedishSentences: alignment.sentences.swedish.length,
    cards: cards.length,
    multiSentenceCardShare: alignment.report.multiSentenceCardCount / Math.max(1, cards.length),
    strictF1: scoreAlignmentLinks(cards, reference).f1,
    laxF1: scoreAlignmentLinksLax(cards, reference).f1,
    cardsJoiningSeparatelyLinkedSentences: findCardsJoiningSeparatelyLinkedSentences(cards, reference).length,
    lowConfidenceCards: alignment.pairs.filter((pair) => pair.confidence < 0.5).length,
    warmMilliseconds,
  });

  const marked = alignSubtitleTracks(english, estonian);
  const ids = (indexes: readonly number[], side: readonly { id?: string }[]) => indexes.map((index) => side[index]?.id ?? `missing-${index}`);
  const markedCards = marked.pairs.map((pair) => ({ sourceIds: ids(pair.englishSentenceIndexes, marked.sentences.english), targetIds: ids(pair.swedishSentenceIndexes, marked.sentences.swedish) }));

  const cuesOnly = alignSubtitleTracks(english.cues, estonian.cues);
  const englishIds = assignMarkedSentenceIds(cuesOnly.sentences.english, english.sentences ?? []);
  const estonianIds = assignMarkedSentenceIds(cuesOnly.sentences.swedish, estonian.sentences ?? []);
  const cuesOnlyCards = cuesOnly.pairs.map((pair) => ({
    sourceIds: pair.englishSentenceIndexes.flatMap((index) => englishIds[index] ?? []),
    targetIds: pair.swedishSentenceIndexes.flatMap((index) => estonianIds[index] ?? []),
  }));
  return {
    marked: score(marked, markedCards, bestOf(3, () => alignSubtitleTracks(english, estonian))),
    cuesOnly: score(cuesOnly, cuesOnlyCards, bestOf(3, () => alignSubtitleTracks(english.cues, estonian.cues))),
  };
}

/** Runs in a child process: aligns one pair, prints its figures as JSON. */
function runAlignmentCaseInThisProcess(caseName: string): void {
  const { english, swedish } = caseName === "en-et" ? loadRealFilmPair() : createSyntheticPair(Number(caseName));
  const baseline = takeMemoryBaseline();
  const started = performance.now();
  const alignment = alignSubtitleTracks(english, swedish);
  const coldMilliseconds = performance.now() - started;
  const memory = measureMemorySince(baseline);
  const warmMilliseconds = bestOf(3, () => alignSubtitleTracks(english, swedish));
  process.stdout.write(JSON.stringify({ englishCues: english.length, swedishCues: swedish.length, coldMilliseconds, warmMilliseconds, ...memory, report: alignment.report }));
}

function runCaseInChildProcess<Result>(flag: "--parse-case" | "--alignment-case", value: string): Result {
  const output = execFileSync(process.execPath, [...process.execArgv, "--expose-gc", fileURLToPath(import.meta.url), flag, value], {
    encoding: "utf8",
    maxBuffer: 10 * 1024 * 1024,
  });
  return JSON.parse(output) as Result;
}

function formatMilliseconds(value: number): string {
  return `${value.toFixed(1).padStart(8)} ms`;
}

const formatMegabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1).padStart(6)} MB`;

interface MeasuredCase {
  coldMilliseconds: number;
  warmMilliseconds: number;
  peakRssDeltaBytes: number;
  retainedHeapBytes: number;
}

function benchmarkFixtureParsing(): BenchFigures {
  console.info(`\nParse time per fixture (${fixtureDirectory}); cold = first parse in this process, warm = best of 10`);
  const figures: BenchFigures = {};
  const fileNames = readdirSync(fixtureDirectory).filter((fileName) => !fileName.endsWith(".md") && fileName !== "SHA256SUMS").sort();
  for (const fileName of fileNames) {
    const bytes = readFileSync(path.join(fixtureDirectory, fileName));
    const coldStarted = performance.now();
    let summary: string;
    let cues: number | null = null;
    try {
      const track = parseSubtitleXml(bytes);
      cues = track.cues.length;
      summary = `${track.format.padEnd(17)} ${String(track.cues.length).padStart(5)} cues`;
    } catch (error) {
      summary = `refused: ${(error as { code?: string }).code}`;
    }
    const cold = performance.now() - coldStarted;
    const warm = bestOf(10, () => {
      try {
        parseSubtitleXml(bytes);
      } catch {
        // Refused files are timed too.
      }
    });
    figures[fileName] = { bytes: bytes.byteLength, cues, coldMilliseconds: cold, warmMilliseconds: warm };
    console.info(`${fileName.padEnd(52)} ${(bytes.byteLength / 1024).toFixed(0).padStart(5)} KB  ${summary.padEnd(30)} cold ${formatMilliseconds(cold)}  warm ${formatMilliseconds(warm)}`);
  }
  return figures;
}

/**
 * How long the parser takes to refuse the hostile documents its tests refuse: what a visitor's upload costs the worker
 * before its 400. The tests check the refusal; the time is measured here.
 */
function benchmarkHostileDocuments(): BenchFigures {
  console.info("\nHostile documents: time to the refusal; cold = first parse in this process, warm = best of 10");
  const documents: [name: string, bytes: Uint8Array][] = [
    ["100,000 nested elements", new TextEncoder().encode(`<tt xmlns="http://www.w3.org/ns/ttml">${"<span>".repeat(100_000)}`)],
    ["billion laughs", readOwnSubtitleFixture("hostile-billion-laughs.xml")],
    ["external entity", readOwnSubtitleFixture("hostile-external-entity.xml")],
    ["just above the size limit", new Uint8Array(DEFAULT_SUBTITLE_PARSE_LIMITS.maximumBytes + 1).fill(0x20)],
  ];
  const figures: BenchFigures = {};
  for (const [name, bytes] of documents) {
    let refusal = "accepted";
    const parse = () => {
      try {
        parseSubtitleXml(bytes);
        refusal = "accepted";
      } catch (error) {
        refusal = String((error as { code?: string }).code);
      }
    };
    const coldStarted = performance.now();
    parse();
    const cold = performance.now() - coldStarted;
    const warm = bestOf(10, parse);
    figures[name] = { bytes: bytes.byteLength, refusal, coldMilliseconds: cold, warmMilliseconds: warm };
    console.info(`${name.padEnd(28)} ${(bytes.byteLength / 1024).toFixed(0).padStart(6)} KB  ${refusal.padEnd(20)} cold ${formatMilliseconds(cold)}  warm ${formatMilliseconds(warm)}`);
  }
  return figures;
}

function benchmarkParseScaling(): BenchFigures {
  console.info("\nParse scaling: synthetic TTML, each size in a fresh process; warm = best of 5; heap Δ = heap held by the parsed track");
  const directory = mkdtempSync(path.join(os.tmpdir(), "atelier-subtitles-bench-"));
  const series = { cues: [] as number[], bytes: [] as number[], coldMilliseconds: [] as number[], warmMilliseconds: [] as number[], retainedHeapBytes: [] as number[], peakRssDeltaBytes: [] as number[] };
  try {
    for (const cueCount of scalingCueCounts) {
      const filePath = path.join(directory, `synthetic-${cueCount}.ttml`);
      writeFileSync(filePath, createSyntheticTtml(cueCount));
      const result = runCaseInChildProcess<MeasuredCase & { cues: number; bytes: number }>("--parse-case", filePath);
      for (const key of Object.keys(series) as (keyof typeof series)[]) series[key].push(result[key]);
      console.info(`${String(result.cues).padStart(6)} cues ${(result.bytes / 1024).toFixed(0).padStart(6)} KB  cold ${formatMilliseconds(result.coldMilliseconds)}  warm ${formatMilliseconds(result.warmMilliseconds)}  heap Δ ${formatMegabytes(result.retainedHeapBytes)}  peak RSS Δ ${formatMegabytes(result.peakRssDeltaBytes)}`);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return series;
}

interface AlignmentCaseResult extends MeasuredCase {
  englishCues: number;
  swedishCues: number;
  report: { offsetMilliseconds: number; frameRateRatio: number; englishCoverage: number; swedishCoverage: number; meanOverlap: number; pairCount: number; multiSentenceCardCount: number; warning?: string };
}

function describeAlignment(name: string, result: AlignmentCaseResult): string {
  const { report } = result;
  return (
    `${name.padEnd(8)} ${String(result.englishCues).padStart(6)} × ${String(result.swedishCues).padEnd(6)} cold ${formatMilliseconds(result.coldMilliseconds)}  warm ${formatMilliseconds(result.warmMilliseconds)}  heap Δ ${formatMegabytes(result.retainedHeapBytes)}  peak RSS Δ ${formatMegabytes(result.peakRssDeltaBytes)}  ` +
    `offset ${report.offsetMilliseconds} ms, ratio ${report.frameRateRatio.toFixed(5)}, coverage ${report.englishCoverage.toFixed(3)}/${report.swedishCoverage.toFixed(3)}, mean IoU ${report.meanOverlap.toFixed(3)}, ${report.pairCount} pairs${report.warning === undefined ? "" : ", WARNING"}`
  );
}

function benchmarkAlignmentScaling(): BenchFigures {
  console.info("\nAlignment scaling: synthetic English/Swedish pairs (25 vs 23.976 fps, 15 s late, jittered, re-split), each size in a fresh process; warm = best of 3");
  const series = { cues: [] as number[], swedishCues: [] as number[], pairCount: [] as number[], multiSentenceCardCount: [] as number[], coldMilliseconds: [] as number[], warmMilliseconds: [] as number[], retainedHeapBytes: [] as number[], peakRssDeltaBytes: [] as number[] };
  for (const cueCount of scalingCueCounts) {
    const result = runCaseInChildProcess<AlignmentCaseResult>("--alignment-case", String(cueCount));
    series.cues.push(result.englishCues);
    series.swedishCues.push(result.swedishCues);
    series.pairCount.push(result.report.pairCount);
    series.multiSentenceCardCount.push(result.report.multiSentenceCardCount);
    series.coldMilliseconds.push(result.coldMilliseconds);
    series.warmMilliseconds.push(result.warmMilliseconds);
    series.retainedHeapBytes.push(result.retainedHeapBytes);
    series.peakRssDeltaBytes.push(result.peakRssDeltaBytes);
    console.info(describeAlignment("synthetic", result));
  }
  const first = 0;
  const last = series.cues.length - 1;
  if (last > first) {
    const timeGrowth = (series.warmMilliseconds[last] as number) / (series.warmMilliseconds[first] as number);
    const sizeGrowth = (series.cues[last] as number) / (series.cues[first] as number);
    console.info(`growth ${series.cues[first]} → ${series.cues[last]} cues: ×${timeGrowth.toFixed(1)} time for ×${sizeGrowth.toFixed(1)} cues (linear would be ×${sizeGrowth.toFixed(1)})`);
  }
  return series;
}

function benchmarkRealFilmAlignment(): BenchFigures {
  console.info("\nAlignment of a real film (the en–et OPUS fixtures)");
  const result = runCaseInChildProcess<AlignmentCaseResult>("--alignment-case", "en-et");
  console.info(describeAlignment("en-et", result));
  const { marked, cuesOnly } = scoreRealFilmCards();
  const describeQuality = (name: string, quality: CardQuality) =>
    `${name}: ${quality.englishSentences} × ${quality.swedishSentences} sentences, ${quality.cards} cards, ${(quality.multiSentenceCardShare * 100).toFixed(1)} % with more than one sentence on a side; ` +
    `card-level link F1 strict ${quality.strictF1.toFixed(4)}, lax ${quality.laxF1.toFixed(4)} against the published alignment; ` +
    `${quality.cardsJoiningSeparatelyLinkedSentences} cards joining sentences linked separately; ${quality.lowConfidenceCards} below confidence 0.5; aligned in ${quality.warmMilliseconds.toFixed(1)} ms warm`;
  console.info(describeQuality("cards as uploaded (OPUS sentences)", marked));
  console.info(describeQuality("cards from the cues only (as a TTML upload)", cuesOnly));
  const { report, ...figures } = result;
  // The time and memory measured in a fresh process are of the film read as cues (the child gets cues only).
  return { ...figures, pairCount: report.pairCount, englishCoverage: report.englishCoverage, swedishCoverage: report.swedishCoverage, meanOverlap: report.meanOverlap, markedSentences: { ...marked }, cuesOnly: { ...cuesOnly } };
}

/**
 * What a server thread feels while the largest accepted pair (two 19,000-cue films) is aligned: the event loop's delay
 * (p50, p99, max) with the alignment in the worker pool, and for contrast on this thread; and the peak RSS of four
 * alignments at once in the pool.
 */
async function benchmarkAlignmentOffTheEventLoop(): Promise<BenchFigures> {
  console.info("\nEvent-loop delay while two 19,000-cue files are aligned (gaps of a 5 ms timer on this thread)");
  const { english, swedish } = createSyntheticPair(19_000);
  const track = (cues: SubtitleCue[]) => ({ format: "ttml" as const, cues, droppedCues: [] });
  await alignSubtitleTracksInWorker(track(english.slice(0, 50)), track(swedish.slice(0, 50)));
  // A 5 ms timer on this thread: the gaps between its ticks, less 5 ms, are what a request arriving then would wait.
  const measure = async (run: () => Promise<unknown>) => {
    const tickTimes: number[] = [performance.now()];
    const ticker = setInterval(() => tickTimes.push(performance.now()), 5);
    const started = performance.now();
    await run();
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    tickTimes.push(performance.now());
    const delays = tickTimes.slice(1).map((time, index) => Math.max(0, time - (tickTimes[index] ?? time) - 5)).sort((left, right) => left - right);
    const at = (fraction: number) => Number((delays[Math.min(delays.length - 1, Math.ceil(fraction * delays.length) - 1)] ?? 0).toFixed(1));
    return { wallMilliseconds: Number(elapsed.toFixed(0)), p50Milliseconds: at(0.5), p99Milliseconds: at(0.99), maxMilliseconds: at(1) };
  };
  const inWorker = await measure(() => alignSubtitleTracksInWorker(track(english), track(swedish), { timeoutMilliseconds: 120_000 }));
  const onThisThread = await measure(async () => alignSubtitleTracks(english, swedish));
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const fourAtOnce = await measure(() => Promise.all(Array.from({ length: 4 }, () => alignSubtitleTracksInWorker(track(english), track(swedish), { timeoutMilliseconds: 120_000 }))));
  clearInterval(sampler);
  await closeSubtitleParseWorkers();
  console.info(`in the worker pool: event-loop delay p99 ${inWorker.p99Milliseconds} ms, max ${inWorker.maxMilliseconds} ms over ${inWorker.wallMilliseconds} ms`);
  console.info(`on this thread:     event-loop delay p99 ${onThisThread.p99Milliseconds} ms, max ${onThisThread.maxMilliseconds} ms`);
  console.info(`four at once in the pool: p99 ${fourAtOnce.p99Milliseconds} ms, peak RSS Δ ${((peakRss - rssBefore) / 1024 / 1024).toFixed(0)} MB`);
  return {
    alignmentEventLoopDelayInWorker: inWorker,
    alignmentEventLoopDelayOnMainThread: onThisThread,
    fourAlignmentsAtOnce: { ...fourAtOnce, peakRssDeltaMegabytes: Number(((peakRss - rssBefore) / 1024 / 1024).toFixed(0)) },
  };
}

const parseCaseIndex = process.argv.indexOf("--parse-case");
const alignmentCaseIndex = process.argv.indexOf("--alignment-case");
if (parseCaseIndex !== -1) {
  runParseCaseInThisProcess(process.argv[parseCaseIndex + 1] as string);
} else if (alignmentCaseIndex !== -1) {
  runAlignmentCaseInThisProcess(process.argv[alignmentCaseIndex + 1] as string);
} else {
  const loadAtStart = os.loadavg()[0]?.toFixed(2);
  const notes = [
    `Node ${process.version}; each size parsed or aligned in a fresh process started with --expose-gc: heap Δ is the heap still held after a full collection with the result alive, peak RSS Δ is the process's max RSS minus its RSS just before the call; load average ${loadAtStart} at the start.`,
  ];
  const figures: BenchFigures = { parse: benchmarkParseScaling(), alignment: benchmarkAlignmentScaling(), hostileInput: await benchmarkAlignmentOffTheEventLoop(), hostileDocuments: benchmarkHostileDocuments() };
  if (existsSync(fixtureDirectory)) {
    figures.realFilm = benchmarkRealFilmAlignment();
    figures.fixtures = benchmarkFixtureParsing();
  } else {
    console.warn(`Skipping the fixture benchmarks: ${fixtureDirectory} does not exist.`);
    notes.push(`The fixture parse times and the en–et film alignment were skipped: ${fixtureDirectory} does not exist.`);
  }
  console.info(`\nWritten: ${writeBenchResult({ name: "subtitles", figures, notes })}`);
}
