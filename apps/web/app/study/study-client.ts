import { createStudyClient } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

export {
  createStudyClient,
  DOUBTFUL_PAIR_CONFIDENCE,
  flashcardPairSchema,
  groupExportPath,
  isDoubtfulPair,
  MARK_STUDIED_ERROR_MESSAGE,
  MAXIMUM_SUBTITLE_FILE_BYTES,
  pairsSearchParameters,
  PAIR_EDIT_ERROR_MESSAGE,
  RATE_ERROR_MESSAGE,
  RESET_ERROR_MESSAGE,
  STATS_ERROR_MESSAGE,
  STUDY_ERROR_MESSAGES,
  UPLOAD_FALLBACK_ERROR_MESSAGE,
  validateSubtitleFiles,
} from "@atelier/site-api";
export type {
  AlignmentReport,
  DeckAllowance,
  FilmContext,
  FlashcardPair,
  GroupStats,
  PairsQuery,
  RatingAnswer,
  StudyClient,
  StudyResult,
  SubtitleGroup,
  UploadAnswer,
  UploadRequest,
  UploadSubtitlesInput,
} from "@atelier/site-api";

/** The client the study screens use. */
export const studyClient = createStudyClient(siteHttp);
