export { warmUpSubtitleParseWorker } from "@atelier/subtitles/node";
export { createStudyRoutes, type StudyRoutesOptions } from "./study-routes.ts";
export { createUploadBodyLimit } from "./subtitle-upload.ts";
export { mergeRequestLearnerIntoAccount } from "./merge-progress.ts";
export { createStudyCallLimiter, type StudyCallLimiter } from "./rating-answer.ts";
export { createRatingFrontRoute } from "./rating-front.ts";
export { closeLargeSessionWorker, warmUpLargeSessionWorker } from "./large-session-reads.ts";
