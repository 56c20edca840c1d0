// `pnpm bench`: parse time per fixture, and alignment time and peak memory for the en–et pair and synthetic pairs.
// Each alignment runs in its own child process so that its peak memory (max RSS minus the RSS before aligning) is
// its own.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { alignSubtitleTracks } from "../src/align-subtitle-tracks.ts";
import { parseSubtitleXml } from "../src/parse-subtitle-xml.ts";
import type { SubtitleCue } from "../src/subtitle-types.ts";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixtureDirectory = path.resolve(packageDirectory, "../../../shared/fixtures/subtitles");

type AlignmentCase = "en-et" | "synthetic-2000" | "synthetic-20000";

function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A film-like English track and a Swedish one from another release: 25/23.976 fps, 15 s late, jittered, re-split. */
function createSyntheticPair(cueCount: number): { english: SubtitleCue[]; swedish: SubtitleCue[] } {
  const random = createSeededRandom(cueCount);
  const english: SubtitleCue[] = [];
  const swedish: SubtitleCue[] = [];
  let time = 60_000;
  for (let index = 0; index < cueCount; index += 1) {
    const duration = 900 + random() * 4_000;
    english.push({ startMilliseconds: Math.round(time), endMilliseconds: Math.round(time + duration), text: `Line ${index}.` });
    const toSwedishClock = (milliseconds: number) => Math.round(((milliseconds + (random() - 0.5) * 300) * 23.976) / 25 + 15_000);
    const roll = random();
    if (roll < 0.03) {
      // No Swedish counterpart.
    } else if (roll < 0.08) {
      const middle = time + duration / 2;
      swedish.push({ startMilliseconds: toSwedishClock(time), endMilliseconds: toSwedishClock(middle - 40), text: `Rad ${index}a,` });
      swedish.push({ startMilliseconds: toSwedishClock(middle + 40), endMilliseconds: toSwedishClock(time + duration), text: `rad ${index}b.` });
    } else {
      swedish.push({ startMilliseconds: toSwedishClock(time), endMilliseconds: toSwedishClock(time + duration), text: `Rad ${index}.` });
    }
    time += duration + 100 + random() * random() * 6_000;
  }
  swedish.sort((left, right) => left.startMilliseconds - right.startMilliseconds);
  return { english, swedish };
}

function loadAlignmentCase(name: AlignmentCase): { english: SubtitleCue[]; swedish: SubtitleCue[] } {
  if (name === "synthetic-2000") return createSyntheticPair(2_000);
  if (name === "synthetic-20000") return createSyntheticPair(20_000);
  return {
    english: parseSubtitleXml(readFileSync(path.join(fixtureDirectory, "opensubs2018-209475.en.54828.xml"))).cues,
    swedish: parseSubtitleXml(readFileSync(path.join(fixtureDirectory, "opensubs2018-209475.et.3123721.xml"))).cues,
  };
}

function runAlignmentCaseInThisProcess(name: AlignmentCase): void {
  const { english, swedish } = loadAlignmentCase(name);
  globalThis.gc?.();
  const residentBefore = process.memoryUsage().rss;
  const started = performance.now();
  const { report } = alignSubtitleTracks(english, swedish);
  const coldMilliseconds = performance.now() - started;
  const peakExtraBytes = process.resourceUsage().maxRSS * 1024 - residentBefore;
  const warmRuns: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const warmStarted = performance.now();
    alignSubtitleTracks(english, swedish);
    warmRuns.push(performance.now() - warmStarted);
  }
  process.stdout.write(
    JSON.stringify({ name, englishCues: english.length, swedishCues: swedish.length, coldMilliseconds, warmMilliseconds: Math.min(...warmRuns), peakExtraBytes, report }),
  );
}

function formatMilliseconds(value: number): string {
  return `${value.toFixed(1).padStart(8)} ms`;
}

function benchmarkParsing(): void {
  console.info(`\nParse time per fixture (${fixtureDirectory}); cold = first parse in this process, warm = best of 10`);
  const fileNames = readdirSync(fixtureDirectory).filter((fileName) => !fileName.endsWith(".md") && fileName !== "SHA256SUMS").sort();
  for (const fileName of fileNames) {
    const bytes = readFileSync(path.join(fixtureDirectory, fileName));
    const coldStarted = performance.now();
    let summary: string;
    try {
      const track = parseSubtitleXml(bytes);
      summary = `${track.format.padEnd(17)} ${String(track.cues.length).padStart(5)} cues`;
    } catch (error) {
      summary = `refused: ${(error as { code?: string }).code}`;
    }
    const cold = performance.now() - coldStarted;
    const warmRuns: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      const started = performance.now();
      try {
        parseSubtitleXml(bytes);
      } catch {
        // Refused files are timed too.
      }
      warmRuns.push(performance.now() - started);
    }
    console.info(`${fileName.padEnd(52)} ${(bytes.byteLength / 1024).toFixed(0).padStart(5)} KB  ${summary.padEnd(30)} cold ${formatMilliseconds(cold)}  warm ${formatMilliseconds(Math.min(...warmRuns))}`);
  }
}

function benchmarkAlignment(): void {
  console.info("\nAlignment (each case in a fresh process; peak = max RSS − RSS before aligning)");
  const cases: AlignmentCase[] = existsSync(fixtureDirectory) ? ["en-et", "synthetic-2000", "synthetic-20000"] : ["synthetic-2000", "synthetic-20000"];
  const results: { name: string; cues: number; warm: number }[] = [];
  for (const name of cases) {
    const output = execFileSync(process.execPath, [...process.execArgv, "--expose-gc", fileURLToPath(import.meta.url), "--alignment-case", name], {
      encoding: "utf8",
      maxBuffer: 10 * 1024 * 1024,
    });
    const result = JSON.parse(output) as {
      englishCues: number;
      swedishCues: number;
      coldMilliseconds: number;
      warmMilliseconds: number;
      peakExtraBytes: number;
      report: { offsetMilliseconds: number; frameRateRatio: number; englishCoverage: number; swedishCoverage: number; meanOverlap: number; pairCount: number; warning?: string };
    };
    const { report } = result;
    console.info(
      `${name.padEnd(16)} ${String(result.englishCues).padStart(6)} × ${String(result.swedishCues).padEnd(6)} cold ${formatMilliseconds(result.coldMilliseconds)}  warm ${formatMilliseconds(result.warmMilliseconds)}  peak +${(result.peakExtraBytes / 1_048_576).toFixed(1)} MB  ` +
        `offset ${report.offsetMilliseconds} ms, ratio ${report.frameRateRatio.toFixed(5)}, coverage ${report.englishCoverage.toFixed(3)}/${report.swedishCoverage.toFixed(3)}, mean IoU ${report.meanOverlap.toFixed(3)}, ${report.pairCount} pairs${report.warning === undefined ? "" : ", WARNING"}`,
    );
    results.push({ name, cues: Math.max(result.englishCues, result.swedishCues), warm: result.warmMilliseconds });
  }
  const small = results.find((result) => result.name === "synthetic-2000");
  const large = results.find((result) => result.name === "synthetic-20000");
  if (small !== undefined && large !== undefined) {
    console.info(`growth 2,000 → 20,000 cues: ×${(large.warm / small.warm).toFixed(1)} time for ×${(large.cues / small.cues).toFixed(1)} cues (linear would be ×10)`);
  }
}

const alignmentCaseIndex = process.argv.indexOf("--alignment-case");
if (alignmentCaseIndex !== -1) {
  runAlignmentCaseInThisProcess(process.argv[alignmentCaseIndex + 1] as AlignmentCase);
} else {
  if (existsSync(fixtureDirectory)) benchmarkParsing();
  else console.warn(`Skipping the parse benchmark: ${fixtureDirectory} does not exist.`);
  benchmarkAlignment();
}
