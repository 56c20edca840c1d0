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

export type RateLimitHitTable = {
  id: string;
  scope: string;
  client_address: string;
  hit_at: string;
};

/** Every table the server owns; later features add theirs here. */
export type DatabaseSchema = {
  contact_message: ContactMessageTable;
  outbox_mail: OutboxMailTable;
  captcha_spent_challenge: CaptchaSpentChallengeTable;
  rate_limit_hit: RateLimitHitTable;
};
