import type { AllauthErrorItem } from "@atelier/auth";

export const INVALID_LOGIN_MESSAGE = "Invalid email or password";
export const AUTHENTICATION_FAILED_MESSAGE = "Authentication failed";
export const LOGIN_UNEXPECTED_ERROR_MESSAGE = "An error occurred during login";
export const SIGNUP_UNEXPECTED_ERROR_MESSAGE = "An error occurred during sign up";
export const PASSWORD_MISMATCH_PAGE_MESSAGE = "Password does not match.";
export const PASSWORD_MISMATCH_MODAL_MESSAGE = "Passwords do not match.";
export const PASSWORD_RESET_ANTI_ENUMERATION_MESSAGE =
  "If an account exists for this email address, we've sent password reset instructions to your inbox.";
export const PASSWORD_RESET_SPAM_HINT = "Don't see it? Be sure to check your spam folder.";

/**
 * The errors to show for a failed login (spec §5): the server's messages, 'Authentication failed' for an error
 * without a message, and 'Invalid email or password' when the server gave no reason at all.
 */
export function loginFailureMessages(errors: readonly AllauthErrorItem[] | undefined): AllauthErrorItem[] {
  if (!errors || errors.length === 0) return [{ message: INVALID_LOGIN_MESSAGE, code: "invalid_login" }];
  return errors.map((error) => (error.message ? error : { ...error, message: AUTHENTICATION_FAILED_MESSAGE }));
}
