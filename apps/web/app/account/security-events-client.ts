import ky, { HTTPError } from "ky";
import * as v from "valibot";

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
 * Reads the signed-in user's security events; `fetch` is replaceable for tests and Storybook.
 *
 * @example
 * const result = await createSecurityEventsClient().loadSecurityEvents();
 */
export function createSecurityEventsClient({ fetch: fetchImplementation = (input, init) => fetch(input, init) }: { fetch?: typeof globalThis.fetch } = {}) {
  const api = ky.create({ credentials: "same-origin", fetch: fetchImplementation, retry: 0, timeout: 30_000 });
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
export const securityEventsClient = createSecurityEventsClient();

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
