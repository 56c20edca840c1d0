import { HTTPError } from "ky";
import * as v from "valibot";
import type { SiteHttp } from "./site-http.ts";

export interface ContactMessageInput {
  name: string;
  email: string;
  message: string;
  /** The captcha's answer: the ALTCHA payload, or the reCAPTCHA token when that is configured. */
  recaptchaToken: string;
  /** The honeypot: people leave it empty, form-filling robots do not. */
  website: string;
}

export type ContactSendResult = { status: "sent"; message: string } | { status: "error"; message: string };

export const CONTACT_NETWORK_ERROR_MESSAGE = "Network error. Please try again.";
export const CONTACT_FALLBACK_ERROR_MESSAGE = "Something went wrong";
export const CONTACT_SENT_MESSAGE = "Thank you! Your message has been sent.";
export const CONTACT_TOO_LARGE_MESSAGE = "Your message is too large to send. Please shorten it and try again.";

const messageBodySchema = v.object({ message: v.pipe(v.string(), v.nonEmpty()) });

/**
 * The contact form's call, `POST /messages/contact/`; failures come back as results with the text to show (spec §8).
 *
 * @example
 * const contact = createContactClient(createSiteHttp());
 * const result = await contact.sendContactMessage(input);
 * if (result.status === "error") showError(result.message);
 */
export function createContactClient({ api }: SiteHttp) {
  return { sendContactMessage: (input: ContactMessageInput) => sendContactMessage(api, input) };
}

export type ContactClient = ReturnType<typeof createContactClient>;

async function sendContactMessage(api: SiteHttp["api"], input: ContactMessageInput): Promise<ContactSendResult> {
  try {
    const body = await api.post("/messages/contact/", { json: input, timeout: 20_000 }).json();
    const parsed = v.safeParse(messageBodySchema, body);
    return { status: "sent", message: parsed.success ? parsed.output.message : CONTACT_SENT_MESSAGE };
  } catch (error) {
    if (error instanceof HTTPError) {
      const body: unknown = await error.response.json().catch(() => undefined);
      const parsed = v.safeParse(messageBodySchema, body);
      if (parsed.success) return { status: "error", message: parsed.output.message };
      // A proxy in front of the server may refuse a large body with a page of its own.
      return { status: "error", message: error.response.status === 413 ? CONTACT_TOO_LARGE_MESSAGE : CONTACT_FALLBACK_ERROR_MESSAGE };
    }
    return { status: "error", message: CONTACT_NETWORK_ERROR_MESSAGE };
  }
}
