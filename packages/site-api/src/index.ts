export { createSiteHttp, CSRF_HEADER_NAME, discardAnswerBody } from "./site-http.ts";
export type { SiteHttp, SiteHttpOptions } from "./site-http.ts";

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
  previewSearchParameters,
  RATE_ERROR_MESSAGE,
  RESET_ERROR_MESSAGE,
  STATS_ERROR_MESSAGE,
  STUDY_ERROR_MESSAGES,
  UPLOAD_FALLBACK_ERROR_MESSAGE,
  validateSubtitleFiles,
} from "./study.ts";
export type {
  AlignmentReport,
  AvailableCardsQuery,
  DeckAllowance,
  FilmContext,
  FlashcardPair,
  GroupStats,
  PageOfPairs,
  PairsQuery,
  PreviewPage,
  PreviewPair,
  PreviewQuery,
  RatingAnswer,
  StudyClient,
  StudyClientOptions,
  StudyResult,
  SubtitleGroup,
  UploadAnswer,
  UploadRequest,
  UploadSubtitlesInput,
} from "./study.ts";

export {
  BILLING_PATHS,
  checkoutErrorText,
  CHECKOUT_UNREADABLE_BODY,
  createBillingClient,
  CSRF_FORM_FIELD_NAME,
  pricingErrorText,
  PRICING_UNREADABLE_MESSAGE,
} from "./billing.ts";
export type { BillingClient, BillingResult } from "./billing.ts";
export { NO_SUBSCRIPTION, PRICING_INTERVALS, pricingAnswerSchema, pricingProductSchema, subscriptionStatusSchema } from "./billing-types.ts";
export type { PricingInterval, PricingProduct, SubscriptionItem, SubscriptionStatus } from "./billing-types.ts";

export { CONTACT_FALLBACK_ERROR_MESSAGE, CONTACT_NETWORK_ERROR_MESSAGE, CONTACT_SENT_MESSAGE, CONTACT_TOO_LARGE_MESSAGE, createContactClient } from "./contact.ts";
export type { ContactClient, ContactMessageInput, ContactSendResult } from "./contact.ts";

export { createSiteConfigClient, siteConfigSchema } from "./site-config.ts";
export type { CaptchaSettings, SiteConfig, SiteConfigClient } from "./site-config.ts";

export {
  ACCOUNT_DELETION_ERROR_MESSAGE,
  ACCOUNT_DELETION_PATH,
  createAccountDeletionClient,
  createProgressMergeClient,
  createSecurityEventsClient,
  describeSecurityEvent,
  MERGE_PROGRESS_PATH,
  SECURITY_EVENTS_ERROR_MESSAGE,
  SECURITY_EVENTS_PATH,
} from "./account.ts";
export type { AccountDeletionClient, AccountDeletionResult, ProgressMergeClient, SecurityEvent, SecurityEvents, SecurityEventsClient, SecurityEventsResult } from "./account.ts";
