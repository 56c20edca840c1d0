/** One item of allauth's `errors` array; `param` is omitted for errors that concern the whole request. */
export type IdentityErrorItem = { message: string; code: string; param?: string };

/** allauth's default English messages, by error code (API.md §6). */
export const identityErrorMessages = {
  required: "This field is required.",
  invalid: "Enter a valid email address.",
  invalid_json: "The request body must be a JSON object.",
  // Django's `ProhibitNullCharactersValidator`, on every form CharField.
  null_characters_not_allowed: "Null characters are not allowed.",
  invalid_login: "Invalid login.",
  email_password_mismatch: "The email address and/or password you specified are not correct.",
  too_many_login_attempts: "Too many failed login attempts. Try again later.",
  email_taken: "A user is already registered with this email address.",
  duplicate_email: "This email address is already associated with this account.",
  incorrect_code: "Incorrect code.",
  incorrect_password: "Incorrect password.",
  invalid_or_expired_key: "Invalid or expired key.",
  invalid_password_reset: "The password reset token was invalid.",
  enter_current_password: "Please type your current password.",
  unknown_email: "Unknown email address.",
  unverified_primary_email: "Your primary email address must be verified.",
  cannot_remove_primary_email: "You cannot remove your primary email address.",
  invalid_choice: "Select a valid choice.",
  password_too_short: `This password is too short. It must contain at least 8 characters.`,
  password_too_long: "This password is too long. It must contain at most 1024 characters.",
  password_too_common: "This password is too common.",
  password_entirely_numeric: "This password is entirely numeric.",
  unverified_email: "You cannot activate two-factor authentication until you have verified your email address.",
  cannot_generate_recovery_codes: "You cannot generate recovery codes without having two-factor authentication enabled.",
  cannot_delete_authenticator: "You cannot deactivate two-factor authentication.",
  account_not_found: "Unknown account.",
  no_password: "Your account has no password set up.",
  no_verified_email: "Your account has no verified email address.",
} as const;

export type IdentityErrorCode = keyof typeof identityErrorMessages;

/** Builds an error item with allauth's message for `code`. */
export function errorItem(code: IdentityErrorCode, param?: string): IdentityErrorItem {
  return param === undefined ? { message: identityErrorMessages[code], code } : { message: identityErrorMessages[code], code, param };
}

/**
 * The input was refused: answered as `400 {"status":400,"errors":[…]}`.
 *
 * @example
 * throw new IdentityInputError([errorItem("required", "email")]);
 */
export class IdentityInputError extends Error {
  readonly errors: readonly IdentityErrorItem[];

  constructor(errors: readonly IdentityErrorItem[]) {
    super(errors.map((error) => error.message).join(" "));
    this.name = "IdentityInputError";
    this.errors = errors;
  }
}

/**
 * A bare status answer such as `{"status":409}` (flow no longer valid), `{"status":403}` or `{"status":429}`.
 *
 * @example
 * throw new IdentityStatusError(409, "No sign-in code is pending in this session.");
 */
export class IdentityStatusError extends Error {
  readonly status: 403 | 404 | 409 | 429;
  /** For a 429: seconds until the limit has room again, sent as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: 403 | 404 | 409 | 429, reason: string, options: { retryAfterSeconds?: number } = {}) {
    super(reason);
    this.name = "IdentityStatusError";
    this.status = status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The endpoint needs a signed-in user: answered with the not-authenticated 401 and the flows. */
export class AuthenticationRequiredError extends Error {
  constructor() {
    super("This endpoint needs a signed-in user.");
    this.name = "AuthenticationRequiredError";
  }
}

/** A sensitive action after the recent-authentication window: answered with the reauthentication 401. */
export class ReauthenticationRequiredError extends Error {
  constructor() {
    super("This action needs a recent authentication.");
    this.name = "ReauthenticationRequiredError";
  }
}

/** Collects field errors in field order, then throws them together. */
export function throwIfAny(errors: readonly IdentityErrorItem[]): void {
  if (errors.length > 0) {
    throw new IdentityInputError(errors);
  }
}
