/** The `ttp:` timing parameters of a TTML document, already validated. */
export interface TtmlTimingParameters {
  timeBase: "media" | "smpte" | "clock";
  /** Nominal integer frame rate (`ttp:frameRate`, default 30). */
  frameRate: number;
  /** `ttp:frameRateMultiplier` as a number, default 1. */
  frameRateMultiplier: number;
  /** `ttp:subFrameRate`, or undefined when the document does not declare it. */
  subFrameRate: number | undefined;
  /** `ttp:tickRate`, else frameRate × subFrameRate, else 1. */
  tickRate: number;
  dropMode: "nonDrop" | "dropNTSC" | "dropPAL";
}

export const DEFAULT_TTML_TIMING_PARAMETERS: Readonly<TtmlTimingParameters> = Object.freeze({
  timeBase: "media",
  frameRate: 30,
  frameRateMultiplier: 1,
  subFrameRate: undefined,
  tickRate: 1,
  dropMode: "nonDrop",
});

export interface TtmlTimingParameterAttributes {
  timeBase?: string;
  frameRate?: string;
  frameRateMultiplier?: string;
  subFrameRate?: string;
  tickRate?: string;
  dropMode?: string;
}

/**
 * Reads and bounds the timing parameters; values outside sane ranges fall back to the defaults rather than
 * producing absurd times.
 *
 * @example
 * readTtmlTimingParameters({ frameRate: "24", frameRateMultiplier: "1000 1001" }).frameRateMultiplier; // 0.999000999
 */
export function readTtmlTimingParameters(attributes: TtmlTimingParameterAttributes): TtmlTimingParameters {
  const frameRate = readBoundedNumber(attributes.frameRate, 0, 1000) ?? DEFAULT_TTML_TIMING_PARAMETERS.frameRate;
  const frameRateMultiplier = readFrameRateMultiplier(attributes.frameRateMultiplier);
  const subFrameRate = readBoundedNumber(attributes.subFrameRate, 0, 1000);
  const tickRate =
    readBoundedNumber(attributes.tickRate, 0, 1e9) ??
    (attributes.frameRate !== undefined ? frameRate * (subFrameRate ?? 1) : DEFAULT_TTML_TIMING_PARAMETERS.tickRate);
  const timeBase = attributes.timeBase === "smpte" || attributes.timeBase === "clock" ? attributes.timeBase : "media";
  const dropMode = attributes.dropMode === "dropNTSC" || attributes.dropMode === "dropPAL" ? attributes.dropMode : "nonDrop";
  return { timeBase, frameRate, frameRateMultiplier, subFrameRate, tickRate, dropMode };
}

function readBoundedNumber(value: string | undefined, exclusiveMinimum: number, inclusiveMaximum: number) {
  if (value === undefined) return undefined;
  const number = Number(value.trim());
  return Number.isFinite(number) && number > exclusiveMinimum && number <= inclusiveMaximum ? number : undefined;
}

function readFrameRateMultiplier(value: string | undefined): number {
  if (value === undefined) return 1;
  const match = /^\s*(\d{1,9})\s+(\d{1,9})\s*$/.exec(value);
  if (match === null) return 1;
  const numerator = Number(match[1]);
  const denominator = Number(match[2]);
  return numerator > 0 && denominator > 0 ? numerator / denominator : 1;
}

const CLOCK_TIME = /^(\d{2,}):(\d{2}):(\d{2})(?:(\.\d+)|:(\d{2,})(?:\.(\d+))?)?$/;
const OFFSET_TIME = /^(\d+(?:\.\d+)?)(h|ms|m|s|f|t)$/;

/**
 * Converts one TTML time expression to milliseconds, or undefined when it is not one.
 * Clock time `hh:mm:ss(.fff)`, `hh:mm:ss:ff(.sub)` and offset time `N(.n)(h|m|s|ms|f|t)` are supported.
 *
 * @example
 * parseTtmlTimeExpression("79249170t", readTtmlTimingParameters({ tickRate: "10000000" })); // 7924.917
 */
export function parseTtmlTimeExpression(expression: string, parameters: TtmlTimingParameters): number | undefined {
  const trimmed = expression.trim();
  const offset = OFFSET_TIME.exec(trimmed);
  if (offset !== null) {
    const value = Number(offset[1]);
    switch (offset[2] as "h" | "m" | "s" | "ms" | "f" | "t") {
      case "h":
        return value * 3_600_000;
      case "m":
        return value * 60_000;
      case "s":
        return value * 1000;
      case "ms":
        return value;
      case "f":
        return (value / effectiveFrameRate(parameters)) * 1000;
      case "t":
        return (value / parameters.tickRate) * 1000;
    }
  }
  const clock = CLOCK_TIME.exec(trimmed);
  if (clock === null) return undefined;
  const hours = Number(clock[1]);
  const minutes = Number(clock[2]);
  const seconds = Number(clock[3]);
  if (minutes > 59 || seconds > 60) return undefined;
  if (clock[4] !== undefined) return (hours * 3600 + minutes * 60 + seconds + Number(clock[4])) * 1000;
  if (clock[5] === undefined) return (hours * 3600 + minutes * 60 + seconds) * 1000;
  const frames = Number(clock[5]) + readSubFrames(clock[6], parameters.subFrameRate);
  if (parameters.timeBase === "smpte") return smpteFramesToMilliseconds(hours, minutes, seconds, frames, parameters);
  return (hours * 3600 + minutes * 60 + seconds + frames / effectiveFrameRate(parameters)) * 1000;
}

// With a declared sub-frame rate, ".sub" counts sub-frames; without one (rate 1 allows only 0), real files mean a
// decimal fraction of a frame, e.g. "10:12.05".
function readSubFrames(subFrames: string | undefined, subFrameRate: number | undefined): number {
  if (subFrames === undefined) return 0;
  if (subFrameRate !== undefined && subFrameRate > 1) return Number(subFrames) / subFrameRate;
  return Number(`0.${subFrames}`);
}

function effectiveFrameRate(parameters: TtmlTimingParameters): number {
  return parameters.frameRate * parameters.frameRateMultiplier;
}

// SMPTE timecode labels frames at the nominal rate; real time divides the frame count by the effective rate.
function smpteFramesToMilliseconds(
  hours: number,
  minutes: number,
  seconds: number,
  frames: number,
  parameters: TtmlTimingParameters,
): number {
  const nominalFrameRate = Math.ceil(parameters.frameRate);
  const totalMinutes = hours * 60 + minutes;
  let droppedFrames = 0;
  if (parameters.dropMode === "dropNTSC") droppedFrames = 2 * (totalMinutes - Math.floor(totalMinutes / 10));
  if (parameters.dropMode === "dropPAL") droppedFrames = 4 * (Math.floor(totalMinutes / 2) - Math.floor(totalMinutes / 10));
  const frameCount = (hours * 3600 + minutes * 60 + seconds) * nominalFrameRate + frames - droppedFrames;
  return (frameCount / effectiveFrameRate(parameters)) * 1000;
}
