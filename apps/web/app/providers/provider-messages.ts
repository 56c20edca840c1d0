import { LOGIN_PATH } from "../lib/auth-routes.ts";


/** Spec §8 "Provider failure", shown on the callback page (with an error) and on the provider error page. */
export const PROVIDER_FAILURE_TITLE = "Third-Party Login Failure";
export const PROVIDER_FAILURE_MESSAGE = "Something went wrong.";

/** allauth's `connected_other` message (API notes §6). */
export const CONNECTED_OTHER_MESSAGE = "The third-party account is already connected to a different account.";

export const PROVIDER_CALLBACK_PATH = "/account/provider/callback";
export const PROVIDER_ACCOUNTS_PATH = "/account/providers";

/**
 * What each `?error=` code of allauth's provider callback means, said to the visitor (API notes §8). `unknown` has no
 * line of its own: 'Something went wrong.' is all that is known.
 */
const providerErrorExplanations: Record<string, string> = {
  cancelled: "The sign-in was cancelled at the provider.",
  denied: "Access was not granted at the provider.",
  signup_closed: "Sign-up is closed at the moment, so no new account could be created.",
  permission_denied: "This account may not sign in here.",
  reauthentication_required: "Please confirm it is you, then try again.",
  connected_other: CONNECTED_OTHER_MESSAGE,
  email_taken: "An account already uses this provider's e-mail address. Log in to it, then connect the provider from your account.",
};

/** A sentence explaining allauth's provider error code, or undefined for `unknown` and codes it does not know. */
export function explainProviderError(code: string | null): string | undefined {
  return code !== null && Object.hasOwn(providerErrorExplanations, code) ? providerErrorExplanations[code] : undefined;
}

/** Where 'Continue' leads after a failure: back to the accounts page after a connection, else to the login page. */
export function continuePathAfterProviderFailure(errorProcess: string | null): string {
  return errorProcess === "connect" ? PROVIDER_ACCOUNTS_PATH : LOGIN_PATH;
}

/** Where allauth sends the browser back after the provider: the callback page for a login, the list for a connection. */
export function providerCallbackUrl(process: "login" | "connect", origin: string): string {
  return `${origin}${process === "login" ? PROVIDER_CALLBACK_PATH : PROVIDER_ACCOUNTS_PATH}`;
}
