import { SubtitleParseError, type AlignmentReport, type ParsedSubtitleTrack, type SentencePair } from "@atelier/subtitles";
import { alignSubtitleTracksInWorker, parseSubtitleXmlInWorker } from "@atelier/subtitles/node";
import type { Context, MiddlewareHandler } from "hono";
import { HttpError, RequestValidationError } from "../http/http-errors.ts";
import { createBodyLimit } from "../http/request-body-limits.ts";
import { oneLineText } from "../http/well-formed-text.ts";
import { readMultipartForm, type MultipartFile, type MultipartForm } from "./multipart-form.ts";

/** Per file, as the subtitle package's own cap. */
export const maximumSubtitleFileBytes = 5 * 1024 * 1024;
/** The whole multipart request: two files and a few fields. */
export const maximumUploadRequestBytes = 11 * 1024 * 1024;
/** Wall-clock limit for reading one file in the worker. */
export const subtitleParseTimeoutMilliseconds = 2_000;
/** Wall-clock limit for aligning two parsed files in the worker (two 19,000-cue films take 1–3 s). */
export const subtitleAlignmentTimeoutMilliseconds = 20_000;
/** Fewer pairs than this means the two files do not belong together. */
export const minimumPairCount = 10;
/**
 * Unrelated films still give hundreds of "pairs", but only about 55–60 % of their links start and end together,
 * against 95–100 % for two subtitle files of one film (see decision 0016). Below this share, with the package's
 * warning set, the upload is refused.
 */
export const minimumCloselyTimedLinkShare = 0.65;
export const maximumGroupNameLength = 120;
/**
 * Uploads in the server at once, arriving, waiting or worked on: each holds up to 11 MB. More are answered 429. A body
 * arrives at its client's pace, so one that trickles holds only this, not a turn of the work below (decision 0082).
 */
const maximumUploadsInTheServer = 16;
/** Uploads parsed and aligned at once, their worker jobs taking turns (decision 0065); the others wait for a turn. */
const maximumUploadsWorkedOn = 4;
/** How long an upload that has arrived waits for its turn before it is answered 429 (an upload's work takes 1–6 s). */
const uploadTurnWaitMilliseconds = 20_000;

/** Uploads of one uploader arriving at once: two tabs may upload two films; a third waits for one of them. */
const maximumUploadsArrivingPerUploader = 2;

export const serverBusyWithUploadsMessage = "The server is reading other uploads right now. Please try again in a few seconds.";
export const uploadAlreadyArrivingMessage = "Your other uploads are still arriving. Please wait until one of them is done, then try again.";

export const uploadTooLargeMessage = "This upload is too large. Each subtitle file must be smaller than 5 MB.";

/**
 * Refuses an upload request over 11 MB with 413 before reading further (by Content-Length, or while streaming
 * without it), in the study API's shape.
 * Installed before the CSRF check, which may read a form body itself.
 */
export function createUploadBodyLimit(): MiddlewareHandler {
  return createBodyLimit({ maximumBytes: maximumUploadRequestBytes, tooLargeBody: () => ({ error: uploadTooLargeMessage, message: uploadTooLargeMessage }) });
}

export type UploadedSubtitles = {
  name: string;
  isPublic: boolean;
  pairs: { english: string; swedish: string; confidence: number }[];
  report: AlignmentReport;
};

/** At most `size` holders at once; `take` waits up to its time for a turn and answers its release, or `null`. */
function createTurns(size: number) {
  let taken = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    taken -= 1;
    waiting.shift()?.();
  };
  return {
    take(waitMilliseconds: number): Promise<(() => void) | null> {
      if (taken < size) {
        taken += 1;
        return Promise.resolve(release);
      }
      return new Promise((resolve) => {
        const grant = () => {
          clearTimeout(timer);
          taken += 1;
          resolve(release);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(grant), 1);
          resolve(null);
        }, waitMilliseconds);
        waiting.push(grant);
      });
    },
  };
}

let uploadsInTheServer = 0;
/** How many uploads of each uploader are arriving. */
const arrivingUploadsByUploader = new Map<string, number>();
const workTurns = createTurns(maximumUploadsWorkedOn);

/** Removes invisible and control characters and surrounding space; what remains is shown as text only. */
export function cleanName(value: string): string {
  return oneLineText(value);
}

/** Language tags that subtitle files carry before `.xml` (`Film.sv.xml`, `Film_en.xml`); the upload form reads names alike. */
const languageSuffix = /[._\- ](?:sv|se|swe|swedish|svenska|en|eng|english)$/i;

/** `The.Bridge.S01E01.sv.xml` → "The Bridge S01E01": without the extension and the language tag, dots read as spaces. */
function nameFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).at(-1) ?? "";
  const withoutExtension = base.replace(/\.xml$/i, "").replace(languageSuffix, "").replace(/[._]+/g, " ");
  const name = cleanName(withoutExtension).slice(0, maximumGroupNameLength).trim();
  return name === "" ? "Subtitles" : name;
}

function parseIsPublic(value: unknown): boolean {
  if (value === undefined || value === "") return true;
  if (typeof value === "string") {
    const normalized = value.trim().toLowerCase();
    if (["true", "1", "on", "yes"].includes(normalized)) return true;
    if (["false", "0", "off", "no"].includes(normalized)) return false;
  }
  throw new RequestValidationError("is_public must be true or false.");
}

async function parseOneFile(label: "English" | "Swedish", file: MultipartFile): Promise<ParsedSubtitleTrack> {
  if (file.tooLarge || file.bytes.byteLength > maximumSubtitleFileBytes) {
    throw new RequestValidationError(`The ${label} file: ${new SubtitleParseError("too-large").userMessage}`);
  }
  return parseSubtitleXmlInWorker(file.bytes, { timeoutMilliseconds: subtitleParseTimeoutMilliseconds, limits: { maximumBytes: maximumSubtitleFileBytes } });
}

/** The upload's form: two files and two short fields, with room for a CSRF token and a few more. */
const uploadFormLimits = { maximumFileBytes: maximumSubtitleFileBytes, maximumFiles: 4, maximumFields: 16, maximumFieldBytes: 16 * 1024 };

/**
 * The upload's fields and files, parsed as the body arrives (`readMultipartForm`). When the CSRF check has already read
 * the body for its form field (a form posted without the header), from the form it read.
 */
async function readUploadForm(c: Context): Promise<MultipartForm> {
  const body = c.req.raw.body;
  if (body !== null && !c.req.raw.bodyUsed) return readMultipartForm(body, c.req.header("content-type") ?? "", uploadFormLimits);
  const parsed = await c.req.parseBody();
  const form: MultipartForm = { fields: new Map(), files: new Map() };
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === "string") form.fields.set(name, value);
    else if (value instanceof File) form.files.set(name, { fileName: value.name, bytes: new Uint8Array(await value.arrayBuffer()), tooLarge: value.size > maximumSubtitleFileBytes });
  }
  return form;
}

function describeFailure(label: "English" | "Swedish", error: unknown): never {
  if (error instanceof HttpError) throw error;
  if (error instanceof SubtitleParseError) throw new RequestValidationError(`The ${label} file: ${error.userMessage}`, { cause: error });
  throw error;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** The language a file says it is in (`xml:lang`, its primary subtag), when that is English or Swedish. */
function declaredLanguageOf(track: ParsedSubtitleTrack): "English" | "Swedish" | null {
  const primary = track.language?.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === "en" || primary === "eng") return "English";
  if (primary === "sv" || primary === "swe") return "Swedish";
  return null;
}

/**
 * Refuses files that say they are in the other field's language (`xml:lang`): swapped files, or one film's English
 * subtitles chosen twice, would otherwise align perfectly into cards with the languages crossed. Files that say
 * nothing, or name another language, are taken as chosen.
 */
function assertLanguagesNotCrossed(englishTrack: ParsedSubtitleTrack, swedishTrack: ParsedSubtitleTrack): void {
  const english = declaredLanguageOf(englishTrack);
  const swedish = declaredLanguageOf(swedishTrack);
  if (english === "Swedish" && swedish === "English") {
    throw new RequestValidationError("The two files seem to be swapped: the English file is marked as Swedish, and the Swedish file as English. Please choose each file in its own field.");
  }
  if (english === "Swedish") {
    throw new RequestValidationError(`The English file is marked as Swedish (xml:lang="${englishTrack.language ?? ""}"). Please choose the English subtitles in the English field.`);
  }
  if (swedish === "English") {
    throw new RequestValidationError(`The Swedish file is marked as English (xml:lang="${swedishTrack.language ?? ""}"). Please choose the Swedish subtitles in the Swedish field.`);
  }
}

/** Refuses pairings that cannot be one film: too few pairs, or the timing profile of unrelated films. */
function assertSameFilm(pairs: readonly SentencePair[], report: AlignmentReport): void {
  const advice = "Please upload the English and the Swedish subtitles of the same film or episode.";
  if (pairs.length < minimumPairCount) {
    throw new RequestValidationError(
      `These two files do not seem to belong to the same film or episode: only ${pairs.length} sentence ${pairs.length === 1 ? "pair" : "pairs"} could be matched. ${advice}`,
    );
  }
  if (report.warning !== undefined && report.closelyTimedLinkShare < minimumCloselyTimedLinkShare) {
    throw new RequestValidationError(
      `These two files do not seem to belong to the same film or episode: only ${percent(report.closelyTimedLinkShare)} of the matched subtitles start and end at about the same time (subtitles of one film: over 90 %), and ${percent(report.englishCoverage)} of the English and ${percent(report.swedishCoverage)} of the Swedish subtitles found a partner. ${advice}`,
    );
  }
}

/**
 * Reads the multipart upload (files `swedish` and `english`, fields `is_public` and `name`), parses both files in
 * workers with a 2 s limit each, aligns them and checks that they belong together. Throws a 4xx `HttpError` with a
 * sentence for the learner on any failure; stores nothing.
 */
export type SubtitleUploadChecks = {
  /** Who uploads (`user:<id>`): at most two uploads of theirs arrive at a time. */
  uploaderKey: string;
  /** Runs once the form's fields are known and before the files are parsed; a refusal (thrown) costs no alignment. */
  beforeReadingFiles?: (fields: { isPublic: boolean }) => Promise<void>;
};

export async function readSubtitleUpload(c: Context, checks: SubtitleUploadChecks): Promise<UploadedSubtitles> {
  const contentType = c.req.header("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new RequestValidationError("Please upload both files");
  }
  const arrivingOfUploader = arrivingUploadsByUploader.get(checks.uploaderKey) ?? 0;
  if (arrivingOfUploader >= maximumUploadsArrivingPerUploader) {
    throw new HttpError(429, uploadAlreadyArrivingMessage, { headers: { "Retry-After": "5" } });
  }
  if (uploadsInTheServer >= maximumUploadsInTheServer) {
    throw new HttpError(429, serverBusyWithUploadsMessage, { headers: { "Retry-After": "5" } });
  }
  uploadsInTheServer += 1;
  let releaseTurn: (() => void) | null = null;
  try {
    let form: MultipartForm;
    arrivingUploadsByUploader.set(checks.uploaderKey, arrivingOfUploader + 1);
    try {
      form = await readUploadForm(c);
    } catch (error) {
      throw new RequestValidationError("The upload could not be read. Please choose the two files again and retry.", { cause: error });
    } finally {
      const stillArriving = (arrivingUploadsByUploader.get(checks.uploaderKey) ?? 1) - 1;
      if (stillArriving === 0) arrivingUploadsByUploader.delete(checks.uploaderKey);
      else arrivingUploadsByUploader.set(checks.uploaderKey, stillArriving);
    }
    const english = form.files.get("english");
    const swedish = form.files.get("swedish");
    if (english === undefined || swedish === undefined || english.bytes.byteLength === 0 || swedish.bytes.byteLength === 0) {
      throw new RequestValidationError("Please upload both files");
    }
    if (!/\.xml$/i.test(english.fileName) || !/\.xml$/i.test(swedish.fileName)) {
      throw new RequestValidationError("Please upload XML files only");
    }
    const isPublic = parseIsPublic(form.fields.get("is_public"));
    const requestedName = cleanName(form.fields.get("name") ?? "");
    if (requestedName.length > maximumGroupNameLength) {
      throw new RequestValidationError(`The name can be at most ${maximumGroupNameLength} characters.`);
    }
    await checks.beforeReadingFiles?.({ isPublic });
    releaseTurn = await workTurns.take(uploadTurnWaitMilliseconds);
    if (releaseTurn === null) throw new HttpError(429, serverBusyWithUploadsMessage, { headers: { "Retry-After": "5" } });

    const [englishResult, swedishResult] = await Promise.allSettled([parseOneFile("English", english), parseOneFile("Swedish", swedish)]);
    if (englishResult.status === "rejected") describeFailure("English", englishResult.reason);
    if (swedishResult.status === "rejected") describeFailure("Swedish", swedishResult.reason);
    const englishTrack = (englishResult as PromiseFulfilledResult<ParsedSubtitleTrack>).value;
    const swedishTrack = (swedishResult as PromiseFulfilledResult<ParsedSubtitleTrack>).value;
    assertLanguagesNotCrossed(englishTrack, swedishTrack);

    // In a worker: two films of 19,000 cues take seconds of CPU, which on this thread would stall every visitor.
    const { pairs, report } = await alignSubtitleTracksInWorker(englishTrack, swedishTrack, { timeoutMilliseconds: subtitleAlignmentTimeoutMilliseconds }).catch((error: unknown) => {
      if (error instanceof SubtitleParseError) {
        throw new HttpError(503, "Matching the two files took longer than the server allows right now. Please try again in a minute.", { cause: error, headers: { "Retry-After": "30" } });
      }
      throw error;
    });
    const cards = pairs
      .map((pair) => ({ english: pair.english.trim(), swedish: pair.swedish.trim(), confidence: pair.confidence }))
      .filter((pair) => pair.english !== "" && pair.swedish !== "");
    assertSameFilm(pairs, report);
    return { name: requestedName === "" ? nameFromFileName(english.fileName) : requestedName, isPublic, pairs: cards, report: { ...report, pairCount: cards.length } };
  } finally {
    releaseTurn?.();
    uploadsInTheServer -= 1;
  }
}
