import type { ColumnType } from "kysely";

export type ContactMessageDeliveryStatus = "pending" | "sent" | "failed";

/** Times are ISO 8601 strings in UTC (`Date#toISOString`): identical on SQLite and PostgreSQL and they sort as text. */
export type ContactMessageTable = {
  id: string;
  name: string;
  email: string;
  message: string;
  ip_address: string | null;
  created_at: string;
  delivery_status: ContactMessageDeliveryStatus;
  delivery_error: string | null;
};

export type OutboxMailTable = {
  id: string;
  to_address: string;
  from_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: string;
};

export type CaptchaSpentChallengeTable = {
  challenge_hash: string;
  expires_at: string;
};

/** A fixed-window counter (`createFixedWindowRateLimiter`). */
export type RateLimitWindowTable = {
  scope: string;
  client_key: string;
  /** ISO time at which the window began. */
  window_start: string;
  request_count: number;
};

/**
 * SQLite only (migration 0014, decision 0052): one row counting the changes to identity_session, identity_user and
 * identity_email_address, kept by triggers.
 */
export type IdentityChangeCountTable = {
  id: number;
  changes: number;
};

export type RateLimitHitTable = {
  id: string;
  scope: string;
  client_address: string;
  hit_at: string;
};

/** A user account. `password_hash` is an argon2id PHC string, or `null` when the user has no usable password. */
export type IdentityUserTable = {
  id: string;
  password_hash: string | null;
  /** 1 = may sign in, 0 = deactivated. */
  is_active: number;
  created_at: string;
};

/** Addresses are stored lowercased; `verified` and `is_primary` are 0 or 1. */
export type IdentityEmailAddressTable = {
  id: string;
  user_id: string;
  email: string;
  verified: number;
  is_primary: number;
  created_at: string;
};

/**
 * A browser or app session, signed in or not. The token itself is never stored, only its SHA-256.
 * `number` is the session's public integer id (allauth's `/auth/sessions` ids are integers).
 */
export type IdentitySessionTable = {
  id: string;
  token_hash: string;
  number: number;
  client: "browser" | "app";
  user_id: string | null;
  /** JSON: the authentication records (`methods`) of this session. */
  methods_json: string;
  /** JSON: the pending flow state (login stage, code processes), or `null`. */
  pending_json: string | null;
  ip: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
};

export type IdentityCodePurpose = "login_by_code" | "email_verification" | "password_reset";

/**
 * A one-time code (bound to the session that asked for it) or a link key; only an HMAC of the secret is stored.
 * `consumed_at` makes it single use; `failed_attempts` counts wrong guesses of a code.
 */
export type IdentityCodeTable = {
  id: string;
  purpose: IdentityCodePurpose;
  kind: "code" | "key";
  secret_hash: string;
  session_id: string | null;
  user_id: string | null;
  email: string;
  failed_attempts: number;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
};

/**
 * A second factor of a user: `totp` (data: the AES-GCM-encrypted secret and the last accepted time step),
 * `recovery_codes` (data: HMACs of the codes and which are used) or `webauthn` (one credential; `credential_id` is its
 * base64url id, data holds the COSE public key, counter and transports). `number` is the public integer id.
 */
export type IdentityAuthenticatorTable = {
  id: string;
  number: number;
  user_id: string;
  type: "totp" | "recovery_codes" | "webauthn";
  name: string | null;
  credential_id: string | null;
  data_json: string;
  created_at: string;
  last_used_at: string | null;
};

/**
 * A third-party account (allauth's `SocialAccount`) connected to a user: `provider` is our provider id, `uid` the
 * subject at the provider (unique per provider), `extra_data_json` the last claims or profile it sent.
 */
export type IdentitySocialAccountTable = {
  id: string;
  user_id: string;
  provider: string;
  uid: string;
  display: string;
  extra_data_json: string;
  created_at: string;
  last_login_at: string;
};

/**
 * One thing that happened to an account (decision 0026): a sign-in, a failed sign-in, a password, address, second
 * factor, passkey, third-party account or session change. `method` is the sign-in method, `detail` what changed
 * (an address, a factor type, a provider); kept for `securityEventRetentionDays`.
 */
export type AccountSecurityEventTable = {
  id: string;
  user_id: string;
  /** 1, 2, … per user: the order of events within one instant. */
  sequence: number;
  type: string;
  method: string | null;
  detail: string | null;
  ip_address: string;
  user_agent: string;
  created_at: string;
};

/** A set of flashcards made from one English and one Swedish subtitle file; `is_public` is 0 or 1. */
export type SubtitleGroupTable = {
  id: string;
  owner_id: string;
  name: string;
  is_public: number;
  /** Kept equal to the number of `subtitle_pair` rows (upload and pair deletion update it). */
  pair_count: number;
  /** JSON: the `AlignmentReport` of the upload (numbers and a warning sentence, no subtitle text). */
  alignment_report_json: string;
  created_at: string;
};

/** One flashcard: plain text from the parser (never XML or HTML); `position` orders the group, gaps allowed. */
export type SubtitlePairTable = {
  id: string;
  group_id: string;
  position: number;
  english: string;
  swedish: string;
  /** The alignment's confidence in the pair, 0–1 (`@atelier/subtitles`' `scorePairConfidence`). */
  confidence: ColumnType<number, number | undefined, number>;
};

/** A pair one learner has hidden from their own study of someone else's public group. */
export type StudyHiddenPairTable = {
  learner_key: string;
  pair_id: string;
  group_id: string;
  hidden_at: string;
};

/** A learner's Leitner record for one pair (`@atelier/leitner`'s `CardProgress`); no row means "new". */
export type StudyProgressTable = {
  /** "user:<user id>" or "anonymous:<the learner id of a learner_id cookie>". */
  learner_key: string;
  pair_id: string;
  group_id: string;
  box: number;
  review_count: number;
  correct_count: number;
  studied_at: string | null;
  last_reviewed_at: string | null;
  due_at: string | null;
  updated_at: string;
};

/** Kept by triggers on `study_progress` (migration 0013): a learner's records in box 5, across every group; no row is 0. */
export type StudyLearnerMemorizedTable = {
  learner_key: string;
  memorized_count: number;
};

/** The billing provider's customer of a user, created before the first checkout (decision 0017). */
export type BillingCustomerTable = {
  user_id: string;
  provider: "stripe" | "dev";
  customer_id: string;
  created_at: string;
  /** When the stored subscriptions were read from the provider (the read's start, ISO 8601); null before the first sync. */
  subscriptions_read_at: string | null;
};

/**
 * A subscription as last read from the provider (the "sync" pattern): the rows of a customer are replaced
 * together by every sync; nothing else writes them. `current_period_end` is seconds since the epoch.
 */
export type BillingSubscriptionTable = {
  subscription_id: string;
  customer_id: string;
  user_id: string;
  status: string;
  price_id: string;
  /** `null` when the price is not one of ours (for example an old price still billed). */
  plan_key: string | null;
  amount_in_cents: number | null;
  current_period_end: number | null;
  /** 0 or 1. */
  cancel_at_period_end: number;
  synced_at: string;
};

/** One verified webhook delivery and what became of it. */
export type BillingWebhookDeliveryTable = {
  id: string;
  event_id: string;
  event_type: string;
  customer_id: string | null;
  received_at: string;
  /** "received" while processing, then "synced", "ignored" or "failed". */
  outcome: string;
  error: string | null;
};

/** The development provider's own state (it plays Stripe's part); unused with Stripe. */
export type DevBillingCustomerTable = { id: string; user_id: string; email: string | null; created_at: string };
export type DevBillingCheckoutSessionTable = {
  id: string;
  customer_id: string;
  price_id: string;
  success_url: string;
  cancel_url: string;
  /** "open", "complete" or "expired" (another checkout of the customer began after it); older rows may say "canceled". */
  status: string;
  created_at: string;
};
export type DevBillingSubscriptionTable = {
  id: string;
  customer_id: string;
  price_id: string;
  status: string;
  current_period_end: number;
  cancel_at_period_end: number;
  created_at: string;
  updated_at: string;
};
export type DevBillingPortalSessionTable = { id: string; customer_id: string; return_url: string; created_at: string };

/** Every table the server owns; later features add theirs here. */
export type DatabaseSchema = {
  contact_message: ContactMessageTable;
  outbox_mail: OutboxMailTable;
  captcha_spent_challenge: CaptchaSpentChallengeTable;
  rate_limit_hit: RateLimitHitTable;
  rate_limit_window: RateLimitWindowTable;
  identity_user: IdentityUserTable;
  identity_change_count: IdentityChangeCountTable;
  identity_email_address: IdentityEmailAddressTable;
  identity_session: IdentitySessionTable;
  identity_code: IdentityCodeTable;
  identity_authenticator: IdentityAuthenticatorTable;
  identity_social_account: IdentitySocialAccountTable;
  account_security_event: AccountSecurityEventTable;
  subtitle_group: SubtitleGroupTable;
  subtitle_pair: SubtitlePairTable;
  study_hidden_pair: StudyHiddenPairTable;
  study_progress: StudyProgressTable;
  study_learner_memorized: StudyLearnerMemorizedTable;
  billing_customer: BillingCustomerTable;
  billing_subscription: BillingSubscriptionTable;
  billing_webhook_delivery: BillingWebhookDeliveryTable;
  dev_billing_customer: DevBillingCustomerTable;
  dev_billing_checkout_session: DevBillingCheckoutSessionTable;
  dev_billing_subscription: DevBillingSubscriptionTable;
  dev_billing_portal_session: DevBillingPortalSessionTable;
};
