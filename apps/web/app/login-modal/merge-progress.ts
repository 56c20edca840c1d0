import { readCsrfTokenFromDocumentCookie } from "@atelier/auth";

/**
 * Moves the anonymous learner's study progress into the account after a sign-in (spec §7). The answer is not read:
 * a failure must never stop the sign-in, so it is only logged.
 */
export async function mergeAnonymousProgress(fetchImplementation: typeof fetch = (input, init) => fetch(input, init)): Promise<void> {
  try {
    await fetchImplementation("/api/merge-progress/", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", "X-CSRFToken": readCsrfTokenFromDocumentCookie() ?? "" },
    });
  } catch (error) {
    console.error("The study progress could not be merged", error);
  }
}
