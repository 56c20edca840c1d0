import { HTTPError } from "ky";
import * as v from "valibot";
import type { SessionConfig } from "@atelier/leitner";
import { discardAnswerBody, type SiteHttp } from "./site-http.ts";

/** The error catalogue of the study screens (spec §8), word for word. */
export const STUDY_ERROR_MESSAGES = {
  loadGroups: "Failed to load saved groups",
  toggleVisibility: "Failed to change visibility status",
  deleteGroup: "Failed to delete group",
  renameGroup: "Failed to rename group",
  loadPairs: "Failed to load flashcard pairs",
  noPairs: "No flashcard pairs available",
  deletePair: "Failed to delete flashcard pair",
  uploadMissingFile: "Please upload both files",
  uploadWrongFileType: "Please upload XML files only",
} as const;

/** Not in the spec's catalogue: shown when an upload fails and the server gives no sentence of its own. */
export const UPLOAD_FALLBACK_ERROR_MESSAGE = "The upload failed. Please try again.";
/** Not shown to anyone (spec §8: stats and mark-studied failures go to the console only). */
export const STATS_ERROR_MESSAGE = "Failed to load the group statistics";
export const MARK_STUDIED_ERROR_MESSAGE = "Failed to mark the cards as studied";
export const RATE_ERROR_MESSAGE = "Failed to save the rating";
/** Not in the spec's catalogue: a pair edit that failed without a sentence from the server. */
export const PAIR_EDIT_ERROR_MESSAGE = "The pair could not be changed. Please try again.";
export const RESET_ERROR_MESSAGE = "Failed to reset the progress";

/**
 * A call's outcome. A failure's `message` is the spec's text; `detail` is the server's own sentence when it refused for a
 * while (429: how long to wait, or what to ask for instead), to show beside it.
 */
export type StudyResult<Data> = { status: "ok"; data: Data } | { status: "error"; message: string; httpStatus?: number; detail?: string };

const groupSchema = v.object({
  id: v.string(),
  name: v.string(),
  created_at: v.string(),
  is_public: v.boolean(),
  owner_id: v.string(),
  is_owner: v.boolean(),
  pair_count: v.number(),
});
export type SubtitleGroup = v.InferOutput<typeof groupSchema>;

/** What the signed-in user's plan allows (additive to spec §7's list answer; absent for visitors). */
const allowanceSchema = v.object({
  plan: v.nullable(v.string()),
  private_decks: v.number(),
  private_deck_limit: v.nullable(v.number()),
  may_add_private_deck: v.boolean(),
  may_export_shared_decks: v.boolean(),
});
export type DeckAllowance = v.InferOutput<typeof allowanceSchema>;

const boxSchema = v.picklist([1, 2, 3, 4, 5]);
const filmLineSchema = v.object({ english: v.string(), swedish: v.string() });
/** The film's lines just before and after a card (additive to spec §3; the pairs call sends it, the stats do not). */
const filmContextSchema = v.object({ before: v.nullable(filmLineSchema), after: v.nullable(filmLineSchema) });
export type FilmContext = v.InferOutput<typeof filmContextSchema>;
export const flashcardPairSchema = v.object({
  id: v.string(),
  english: v.string(),
  swedish: v.string(),
  current_box: boxSchema,
  /** How sure the alignment was of the pair, 0–1 (additive; 1 when absent). */
  confidence: v.optional(v.number(), 1),
  context: v.optional(filmContextSchema),
});

/** Below this confidence a pair is marked for the learner to check (`@atelier/subtitles`' `scorePairConfidence`). */
export const DOUBTFUL_PAIR_CONFIDENCE = 0.5;

export function isDoubtfulPair(pair: { confidence: number }): boolean {
  return pair.confidence < DOUBTFUL_PAIR_CONFIDENCE;
}
export type FlashcardPair = v.InferOutput<typeof flashcardPairSchema>;

/** A pair of the setup's preview, with its number in the film among the pairs the learner studies (decision 0039). */
const previewPairSchema = v.object({
  id: v.string(),
  english: v.string(),
  swedish: v.string(),
  current_box: boxSchema,
  confidence: v.optional(v.number(), 1),
  number: v.number(),
});
export type PreviewPair = v.InferOutput<typeof previewPairSchema>;

/** Which page of the preview a list is, how many pairs a page holds, and how many pairs are listed in all. */
const pageOfPairsSchema = v.object({ page: v.number(), page_size: v.number(), total: v.number() });
export type PageOfPairs = v.InferOutput<typeof pageOfPairsSchema>;

const previewPageSchema = v.object({ pairs: v.array(previewPairSchema), ...pageOfPairsSchema.entries });
export type PreviewPage = v.InferOutput<typeof previewPageSchema>;

const statsSchema = v.object({
  id: v.string(),
  name: v.string(),
  is_public: v.boolean(),
  is_owner: v.boolean(),
  /** Own groups always; someone else's shared group with a plan that includes it. */
  can_export: v.optional(v.boolean(), false),
  total: v.number(),
  not_started: v.number(),
  in_progress: v.number(),
  memorized: v.number(),
  box_distribution: v.object({ box1: v.number(), box2: v.number(), box3: v.number(), box4: v.number() }),
  total_reviews: v.number(),
  accuracy: v.number(),
  reviewing: v.number(),
  learned: v.number(),
  dueToday: v.number(),
  anonymous_limit_reached: v.boolean(),
  /** The pairs this learner hid from their study (additive). */
  hidden_pairs: v.optional(v.array(v.object({ id: v.string(), english: v.string(), swedish: v.string() })), []),
  /** Started cards due on each of the next 7 days (additive). */
  due_forecast: v.optional(v.array(v.number()), []),
  /** The spec's pairs: the preview's first page (decision 0039); `pairs_page` says which page and of how many pairs. */
  pairs: v.array(previewPairSchema),
  pairs_page: pageOfPairsSchema,
  /** The doubtful pairs among those the learner studies (additive). */
  doubtful_count: v.number(),
});
export type GroupStats = v.InferOutput<typeof statsSchema>;

const learningStateSchema = v.picklist(["new", "in-progress", "memorized"]);
const rateSchema = v.object({
  pair: v.object({ id: v.string(), current_box: boxSchema }),
  memorized: v.number(),
  anonymous_limit_reached: v.boolean(),
  /** Where the card stood before and after the rating (additive), so the screen moves its counts itself. */
  learning_state: v.optional(v.object({ before: learningStateSchema, after: learningStateSchema })),
});
export type RatingAnswer = v.InferOutput<typeof rateSchema>;

const reportSchema = v.object({
  offsetMilliseconds: v.number(),
  frameRateRatio: v.number(),
  englishCoverage: v.number(),
  swedishCoverage: v.number(),
  meanOverlap: v.number(),
  pairCount: v.number(),
  warning: v.optional(v.string()),
});
export type AlignmentReport = v.InferOutput<typeof reportSchema>;
const uploadAnswerSchema = v.object({ group: groupSchema, report: reportSchema, pair_count: v.number() });
export type UploadAnswer = v.InferOutput<typeof uploadAnswerSchema>;

const errorBodySchema = v.object({ error: v.pipe(v.string(), v.nonEmpty()) });

/** The query of the pairs call; range and cardCount may arrive as the string "undefined" (spec §7). */
export interface PairsQuery {
  mode: SessionConfig["mode"];
  range: SessionConfig["range"] | "undefined";
  cardCount?: number | "undefined";
  startIndex?: number;
  endIndex?: number;
}

/** The pairs call's search parameters: range and cardCount are left out when they are the string "undefined" or absent. */
export function pairsSearchParameters(query: PairsQuery): URLSearchParams {
  const parameters = new URLSearchParams({ mode: query.mode });
  if (query.range !== "undefined") parameters.set("range", query.range);
  if (query.cardCount !== undefined && query.cardCount !== "undefined") parameters.set("cardCount", String(query.cardCount));
  if (query.startIndex !== undefined) parameters.set("startIndex", String(query.startIndex));
  if (query.endIndex !== undefined) parameters.set("endIndex", String(query.endIndex));
  return parameters;
}

/** Which page of the setup's preview to load: its number (from 1), its size, and whether only doubtful pairs are listed. */
export interface PreviewQuery {
  page: number;
  pageSize: number;
  onlyDoubtful: boolean;
}

/** The preview call's search parameters; `only_doubtful` only when asked. */
export function previewSearchParameters(query: PreviewQuery): URLSearchParams {
  const parameters = new URLSearchParams({ page: String(query.page), page_size: String(query.pageSize) });
  if (query.onlyDoubtful) parameters.set("only_doubtful", "1");
  return parameters;
}

/** The window and range whose available cards the setup counts (the pairs call's query without mode). */
export type AvailableCardsQuery = Omit<PairsQuery, "mode">;

export interface UploadSubtitlesInput {
  swedish: File;
  english: File;
  /** Public is the default; the privacy checkbox makes the cards private. */
  isPublic: boolean;
  name?: string;
}

/** The part of XMLHttpRequest the upload uses, so tests can pass a stand-in. */
export type UploadRequest = Pick<XMLHttpRequest, "open" | "send" | "setRequestHeader" | "status" | "responseText" | "withCredentials" | "onload" | "onerror"> & {
  upload: Pick<XMLHttpRequestUpload, "onprogress">;
};

export interface StudyClientOptions {
  createUploadRequest?: () => UploadRequest;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The study screens' calls to our own API (spec §7), each returning a result; failures carry the spec's text.
 *
 * @example
 * const client = createStudyClient(createSiteHttp({ readCsrfToken: readCsrfTokenFromDocumentCookie }));
 * const result = await client.loadGroups();
 * if (result.status === "error") showError(result.message);
 */
export function createStudyClient({ api, csrfHeaders }: SiteHttp, { createUploadRequest = () => new XMLHttpRequest() }: StudyClientOptions = {}) {

  async function call<Schema extends v.GenericSchema>(
    send: () => Promise<Response>,
    schema: Schema | undefined,
    errorMessage: string,
  ): Promise<StudyResult<v.InferOutput<Schema>>> {
    try {
      const response = await send();
      if (schema === undefined) {
        await discardAnswerBody(response);
        return { status: "ok", data: undefined as v.InferOutput<Schema> };
      }
      const parsed = v.safeParse(schema, await response.json());
      return parsed.success ? { status: "ok", data: parsed.output } : { status: "error", message: errorMessage, httpStatus: response.status };
    } catch (error) {
      if (!(error instanceof HTTPError)) return { status: "error", message: errorMessage };
      const httpStatus = error.response.status;
      if (httpStatus !== 429) return { status: "error", message: errorMessage, httpStatus };
      const body = v.safeParse(errorBodySchema, await error.response.json().catch(() => undefined));
      return { status: "error", message: errorMessage, httpStatus, ...(body.success && { detail: body.output.error }) };
    }
  }

  /** Like `call`, but a refusal carries the server's own sentence (the pair edits explain what to change). */
  async function callSayingWhy<Schema extends v.GenericSchema>(send: () => Promise<Response>, schema: Schema, fallbackMessage: string): Promise<StudyResult<v.InferOutput<Schema>>> {
    try {
      const parsed = v.safeParse(schema, await (await send()).json());
      return parsed.success ? { status: "ok", data: parsed.output } : { status: "error", message: fallbackMessage };
    } catch (error) {
      if (!(error instanceof HTTPError)) return { status: "error", message: fallbackMessage };
      const body = v.safeParse(errorBodySchema, await error.response.json().catch(() => undefined));
      return { status: "error", message: body.success ? body.output.error : fallbackMessage, httpStatus: error.response.status };
    }
  }

  const editedPairSchema = v.object({ id: v.string(), english: v.string(), swedish: v.string(), confidence: v.number() });
  const pairPath = (pairId: string, suffix = "") => `/api/subtitle-pairs/${encodeURIComponent(pairId)}/${suffix}`;

  const groupAnswerSchema = v.object({ group: groupSchema });

  return {
    loadGroups: () => call(() => api.get("/api/subtitle-groups/"), v.object({ groups: v.array(groupSchema), allowance: v.optional(allowanceSchema) }), STUDY_ERROR_MESSAGES.loadGroups),
    toggleGroupVisibility: (groupId: string) =>
      call(() => api.post(`/api/subtitle-groups/${encodeURIComponent(groupId)}/toggle-public/`), groupAnswerSchema, STUDY_ERROR_MESSAGES.toggleVisibility),
    renameGroup: (groupId: string, name: string) =>
      call(() => api.post(`/api/subtitle-groups/${encodeURIComponent(groupId)}/rename/`, { json: { name } }), groupAnswerSchema, STUDY_ERROR_MESSAGES.renameGroup),
    deleteGroup: (groupId: string) => call(() => api.delete(`/api/subtitle-groups/${encodeURIComponent(groupId)}/`), undefined, STUDY_ERROR_MESSAGES.deleteGroup),
    loadStats: (groupId: string) => call(() => api.get(`/api/subtitle-groups/${encodeURIComponent(groupId)}/stats/`), statsSchema, STATS_ERROR_MESSAGE),
    loadPairs: (groupId: string, query: PairsQuery) =>
      call(
        () => api.get(`/api/subtitle-groups/${encodeURIComponent(groupId)}/pairs/`, { searchParams: pairsSearchParameters(query) }),
        v.object({ pairs: v.array(flashcardPairSchema) }),
        STUDY_ERROR_MESSAGES.loadPairs,
      ),
    /** A page of the setup's preview; a page past the last answers the last one. */
    loadPreviewPage: (groupId: string, query: PreviewQuery) =>
      call(
        () => api.get(`/api/subtitle-groups/${encodeURIComponent(groupId)}/preview/`, { searchParams: previewSearchParameters(query) }),
        previewPageSchema,
        STUDY_ERROR_MESSAGES.loadPairs,
      ),
    /** How many cards the pairs call would answer for this range and window (the setup's "cards available"). */
    countAvailableCards: (groupId: string, query: AvailableCardsQuery) => {
      const searchParams = pairsSearchParameters({ mode: "study", ...query });
      searchParams.delete("mode");
      return call(() => api.get(`/api/subtitle-groups/${encodeURIComponent(groupId)}/available-cards/`, { searchParams }), v.object({ available: v.number() }), STATS_ERROR_MESSAGE);
    },
    ratePair: (pairId: string, isCorrect: boolean) =>
      call(() => api.post(`/api/subtitle-pairs/${encodeURIComponent(pairId)}/rate/`, { json: { is_correct: isCorrect } }), rateSchema, RATE_ERROR_MESSAGE),
    editPair: (pairId: string, sides: { english?: string; swedish?: string }) =>
      callSayingWhy(() => api.patch(pairPath(pairId), { json: sides }), v.object({ pair: editedPairSchema }), PAIR_EDIT_ERROR_MESSAGE),
    mergePairWithNext: (pairId: string) =>
      callSayingWhy(() => api.post(pairPath(pairId, "merge-next/")), v.object({ pair: editedPairSchema }), PAIR_EDIT_ERROR_MESSAGE),
    splitPair: (pairId: string, point: { englishSentences: number; swedishSentences: number }) =>
      callSayingWhy(
        () => api.post(pairPath(pairId, "split/"), { json: { english_sentences: point.englishSentences, swedish_sentences: point.swedishSentences } }),
        v.object({ pairs: v.array(editedPairSchema) }),
        PAIR_EDIT_ERROR_MESSAGE,
      ),
    hidePair: (pairId: string) => callSayingWhy(() => api.post(pairPath(pairId, "hide/")), v.object({ hidden: v.boolean() }), PAIR_EDIT_ERROR_MESSAGE),
    showPair: (pairId: string) => callSayingWhy(() => api.delete(pairPath(pairId, "hide/")), v.object({ hidden: v.boolean() }), PAIR_EDIT_ERROR_MESSAGE),
    deletePair: (pairId: string) => call(() => api.delete(`/api/subtitle-pairs/${encodeURIComponent(pairId)}/`), undefined, STUDY_ERROR_MESSAGES.deletePair),
    markStudied: (groupId: string, pairIds: string[]) =>
      call(
        () => api.post(`/api/subtitle-groups/${encodeURIComponent(groupId)}/mark-studied/`, { json: { pairIds } }),
        v.object({ marked: v.number() }),
        MARK_STUDIED_ERROR_MESSAGE,
      ),
    resetStats: (groupId: string) =>
      call(() => api.post(`/api/subtitle-groups/${encodeURIComponent(groupId)}/reset-stats/`), undefined, RESET_ERROR_MESSAGE),

    /**
     * Sends both files with XMLHttpRequest, because fetch cannot report upload progress; `onProgress` gets the
     * fraction of bytes sent (0–1). A failure carries the server's error text (spec §8).
     */
    uploadSubtitles: (input: UploadSubtitlesInput, onProgress?: (fractionSent: number) => void): Promise<StudyResult<UploadAnswer>> =>
      new Promise((resolve) => {
        const body = new FormData();
        body.append("swedish", input.swedish);
        body.append("english", input.english);
        body.append("is_public", input.isPublic ? "true" : "false");
        const name = input.name?.trim();
        if (name) body.append("name", name);
        const request = createUploadRequest();
        request.open("POST", "/api/upload-subtitles/");
        request.withCredentials = true;
        for (const [header, value] of Object.entries(csrfHeaders())) request.setRequestHeader(header, value);
        request.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
        };
        request.onload = () => {
          const answer = parseJson(request.responseText);
          if (request.status >= 200 && request.status < 300) {
            const parsed = v.safeParse(uploadAnswerSchema, answer);
            resolve(parsed.success ? { status: "ok", data: parsed.output } : { status: "error", message: UPLOAD_FALLBACK_ERROR_MESSAGE, httpStatus: request.status });
            return;
          }
          const error = v.safeParse(errorBodySchema, answer);
          resolve({ status: "error", message: error.success ? error.output.error : UPLOAD_FALLBACK_ERROR_MESSAGE, httpStatus: request.status });
        };
        request.onerror = () => resolve({ status: "error", message: UPLOAD_FALLBACK_ERROR_MESSAGE });
        request.send(body);
      }),
  };
}

export type StudyClient = ReturnType<typeof createStudyClient>;

/** The upload form's checks (spec §5): both files, and only files named .xml. */
/** The server's limit per subtitle file; larger files are refused here, before anything is sent. */
export const MAXIMUM_SUBTITLE_FILE_BYTES = 5 * 1024 * 1024;

export function validateSubtitleFiles(files: { swedish: File | null | undefined; english: File | null | undefined }): string | undefined {
  if (!files.swedish || !files.english) return STUDY_ERROR_MESSAGES.uploadMissingFile;
  const isXml = (file: File) => file.name.toLowerCase().endsWith(".xml");
  if (!isXml(files.swedish) || !isXml(files.english)) return STUDY_ERROR_MESSAGES.uploadWrongFileType;
  for (const [label, file] of [["Swedish", files.swedish], ["English", files.english]] as const) {
    if (file.size > MAXIMUM_SUBTITLE_FILE_BYTES) {
      return `The ${label} file is too large (${(file.size / 1024 / 1024).toFixed(1)} MB): each subtitle file must be smaller than 5 MB.`;
    }
  }
  return undefined;
}

/** Download paths of a group's pairs, offered on the setup screen. */
export function groupExportPath(groupId: string, format: "csv" | "tsv"): string {
  return `/api/subtitle-groups/${encodeURIComponent(groupId)}/export.${format}`;
}
