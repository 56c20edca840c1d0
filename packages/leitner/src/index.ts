export type {
  BoxNumber,
  BoxDistribution,
  CardLearningState,
  CardProgress,
  GroupStatistics,
  LearnerKind,
  PairWithId,
  ProgressByPairId,
  SessionConfig,
  SessionMode,
  StudyRange,
} from "./types.ts";
export type { StudySetupDefaults } from "./constants.ts";
export {
  FIRST_BOX,
  MEMORIZED_BOX,
  ANONYMOUS_MEMORIZED_CARD_LIMIT,
  CARD_COUNT_OPTIONS,
  REVIEW_OPTIONS,
  PREVIEW_PAGE_SIZES,
  DEFAULT_PREVIEW_PAGE_SIZE,
  REVIEW_INTERVAL_DAYS_BY_BOX,
  DEFAULT_SESSION_CONFIG,
  DEFAULT_SETUP,
} from "./constants.ts";
export { learningStateOf, currentBoxOf, indexProgressByPairId, isCardInStudyRange } from "./card-state.ts";
export { computeDueAt, isCardDue, nextReviewAfterAnswer, describeReviewDelay, forecastDueCards } from "./schedule.ts";
export type { NextReview } from "./schedule.ts";
export { rateCard, markCardsStudied, resetProgress } from "./progress.ts";
export type { SessionSelection, SessionOrder } from "./session.ts";
export {
  describeSessionSelection,
  clampSessionWindow,
  selectSessionCards,
  nextCardIndexAfterRating,
  countAvailableCards,
  cardCountOptions,
  allLoadedCardsMemorized,
} from "./session.ts";
export {
  computeGroupStatistics,
  describeDueDateClasses,
  dueDateClassOf,
  dueForecastFromTallies,
  groupStatisticsFromTallies,
  moveLearningStateCount,
  tallyProgress,
  type DueDateClasses,
  type LearningStateCounts,
  type StatisticsTally,
} from "./statistics.ts";
export { isAnonymousLimitReached, canAnonymousLearnerRate, canLearnerRate } from "./anonymous-limit.ts";
export { mergeLearnerProgress } from "./merge.ts";
