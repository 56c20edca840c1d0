import { HTTPError } from "ky";
import * as v from "valibot";
import { discardAnswerBody, type SiteHttp } from "./site-http.ts";

/** What happened to the account (`GET /api/account/security-events/`, issue 18). */
export const SECURITY_EVENTS_PATH = "/api/account/security-events/";

const securityEventSchema = v.object({
  type: v.string(),
  method: v.nullable(v.string()),
  detail: v.nullable(v.string()),
  ip_address: v.nullable(v.string()),
  user_agent: v.nullable(v.string()),
  created_at: v.string(),
});
export type SecurityEvent = v.InferOutput<typeof securityEventSchema>;

const securityEventsSchema = v.object({ retention_days: v.number(), events: v.array(securityEventSchema) });
export type SecurityEvents = v.InferOutput<typeof securityEventsSchema>;

export type SecurityEventsResult = { status: "ok"; data: SecurityEvents } | { status: "error"; message: string; httpStatus?: number };

export const SECURITY_EVENTS_ERROR_MESSAGE = "Your account's history could not be loaded. Please reload the page.";

/**
 * Reads the signed-in user's security events.
 *
 * @example
 * const result = await createSecurityEventsClient(createSiteHttp()).loadSecurityEvents();
 */
export function createSecurityEventsClient({ api }: SiteHttp) {
  return {
    async loadSecurityEvents(): Promise<SecurityEventsResult> {
      try {
        const body: unknown = await api.get(SECURITY_EVENTS_PATH).json();
        const parsed = v.safeParse(securityEventsSchema, body);
        return parsed.success ? { status: "ok", data: parsed.output } : { status: "error", message: SECURITY_EVENTS_ERROR_MESSAGE };
      } catch (error) {
        return { status: "error", message: SECURITY_EVENTS_ERROR_MESSAGE, ...(error instanceof HTTPError ? { httpStatus: error.response.status } : {}) };
      }
    },
  };
}

export type SecurityEventsClient = ReturnType<typeof createSecurityEventsClient>;


/** Deletes the signed-in user's account (`DELETE /api/account/`, issue 18). */
export const ACCOUNT_DELETION_PATH = "/api/account/";
export const ACCOUNT_DELETION_ERROR_MESSAGE = "Your account could not be deleted. Nothing was deleted; please try again in a moment.";

export type AccountDeletionResult = { status: "deleted" } | { status: "reauthenticate" } | { status: "error"; message: string };

/**
 * @example
 * const result = await createAccountDeletionClient(createSiteHttp()).deleteAccount();
 * if (result.status === "reauthenticate") navigate("/account/reauthenticate?next=/account/delete");
 */
export function createAccountDeletionClient({ api }: SiteHttp) {
  return {
    async deleteAccount(): Promise<AccountDeletionResult> {
      try {
        // Cancelling subscriptions at the provider comes first and may take a while.
        await discardAnswerBody(await api.delete(ACCOUNT_DELETION_PATH, { timeout: 60_000 }));
        return { status: "deleted" };
      } catch (error) {
        if (error instanceof HTTPError && error.response.status === 401) {
          // allauth's reauthentication 401 carries the flows; a plain 401 means the session is gone.
          const body = (await error.response.json().catch(() => null)) as { data?: { flows?: { id?: string }[] } } | null;
          if (body?.data?.flows?.some((flow) => flow.id === "reauthenticate" || flow.id === "mfa_reauthenticate")) return { status: "reauthenticate" };
        }
        const message = error instanceof HTTPError ? ((await error.response.json().catch(() => null)) as { message?: string } | null)?.message : undefined;
        return { status: "error", message: message ?? ACCOUNT_DELETION_ERROR_MESSAGE };
      }
    },
  };
}

export type AccountDeletionClient = ReturnType<typeof createAccountDeletionClient>;

const descriptions: Record<string, string> = {
  signed_in: "Signed in",
  sign_in_failed: "Failed sign-in",
  password_set: "Password set",
  password_changed: "Password changed",
  password_reset: "Password reset",
  email_added: "E-mail address added",
  email_removed: "E-mail address removed",
  email_made_primary: "Primary e-mail address changed",
  second_factor_added: "Second factor added",
  second_factor_removed: "Second factor removed",
  passkey_added: "Passkey added",
  third_party_account_connected: "Third-party account connected",
  third_party_account_disconnected: "Third-party account disconnected",
  recovery_codes_generated: "New recovery codes generated",
  sessions_ended: "Sessions ended",
};

const methods: Record<string, string> = {
  password: "with a password",
  code: "with a code sent by e-mail",
  mfa: "with a second factor",
  socialaccount: "with a third-party account",
  signup: "after signing up",
};

/** One line saying what happened, in words: "Signed in with a password", "E-mail address added: ada@example.org". */
export function describeSecurityEvent(event: Pick<SecurityEvent, "type" | "method" | "detail">): string {
  const what = descriptions[event.type] ?? event.type.replaceAll("_", " ");
  const how = event.method ? methods[event.method] : undefined;
  if (event.type === "sessions_ended" && event.detail) return `${event.detail === "1" ? "1 session" : `${event.detail} sessions`} ended`;
  const detail = event.detail && event.type !== "sessions_ended" ? `: ${event.detail}` : "";
  return `${what}${how ? ` ${how}` : ""}${detail}`;
}

/** After a sign-in in the login modal (spec §4.2, §7): the server merged already; this call finds nothing left then. */
export const MERGE_PROGRESS_PATH = "/api/merge-progress/";

/**
 * The spec's call after a modal login. Nothing in the answer is used (it is read only to free the connection): a
 * failure must never stop the sign-in, so it is only logged.
 *
 * @example
 * await createProgressMergeClient(createSiteHttp()).mergeAnonymousProgress();
 */
export function createProgressMergeClient({ api }: SiteHttp) {
  return {
    async mergeAnonymousProgress(): Promise<void> {
      try {
        // Spec: with credentials, a JSON content type and the CSRF header, and no body.
        await discardAnswerBody(await api.post(MERGE_PROGRESS_PATH, { headers: { "Content-Type": "application/json" }, credentials: "include" }));
      } catch (error) {
        console.error("The study progress could not be merged", error);
      }
    },
  };
}

export type ProgressMergeClient = ReturnType<typeof createProgressMergeClient>;
