import type { AlignmentReport } from "@atelier/site-api";

/** Language tags that subtitle files carry before `.xml`: `Film.sv.xml`, `Film_en.xml`, `Film-swe.xml`, `Film.English.xml`. */
const languageSuffix = /[._\- ](?:sv|se|swe|swedish|svenska|en|eng|english)$/i;

/**
 * The group name a file name suggests: the name without `.xml` and without a language tag, dots and underscores read
 * as spaces (`The.Bridge.S01E01.sv.xml` → "The Bridge S01E01"). The server uses the same rule when no name is sent.
 */
export function groupNameFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).at(-1) ?? "";
  const withoutExtension = base.replace(/\.xml$/i, "").replace(languageSuffix, "");
  return withoutExtension.replace(/[._]+/g, " ").replace(/\s+/g, " ").trim();
}

function seconds(milliseconds: number): string {
  const value = Math.abs(milliseconds) / 1000;
  return `${value < 60 ? value.toFixed(1) : Math.round(value)} s`;
}

function cards(count: number): string {
  return `${count.toLocaleString("en-GB")} sentence pair${count === 1 ? "" : "s"}`;
}

/** Below this the two files are already in step: no learner notices a tenth of a second. */
const unnoticedOffsetMilliseconds = 100;
/** 0.1 %: two releases at the same frame rate. */
const sameSpeedTolerance = 0.001;

/**
 * The upload's result in a learner's words: how many cards, and what was done to match the files
 * ("559 sentence pairs; the Swedish file was 14.6 s later and has been matched.").
 */
export function describeUploadResult(report: AlignmentReport, pairCount: number): { headline: string; details: string[] } {
  // english ≈ frameRateRatio · swedish + offset: a negative offset means the Swedish lines come later.
  const offset = report.offsetMilliseconds;
  const timing =
    Math.abs(offset) < unnoticedOffsetMilliseconds
      ? "the two files were already in step"
      : `the Swedish file was ${seconds(offset)} ${offset < 0 ? "later" : "earlier"} and has been matched`;
  const details: string[] = [];
  const speedDifference = report.frameRateRatio - 1;
  if (Math.abs(speedDifference) > sameSpeedTolerance) {
    details.push(
      `The two files run at different speeds (another frame rate): the Swedish timing was ${(Math.abs(speedDifference) * 100).toFixed(1)} % ${speedDifference > 0 ? "faster" : "slower"}, and this has been corrected too.`,
    );
  }
  const leftOut = Math.min(report.englishCoverage, report.swedishCoverage);
  details.push(
    leftOut >= 0.95
      ? "Almost every line found its partner."
      : `${Math.round(report.englishCoverage * 100)} % of the English lines and ${Math.round(report.swedishCoverage * 100)} % of the Swedish lines found a partner; songs, signs and lines that only one file has were left out.`,
  );
  return { headline: `${cards(pairCount)}; ${timing}.`, details };
}
