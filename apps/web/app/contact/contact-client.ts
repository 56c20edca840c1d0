import ky, { HTTPError } from "ky";
import * as v from "valibot";
import { readCsrfTokenFromDocumentCookie } from "@atelier/auth";

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
 * Sends the contact form to `POST /messages/contact/`; failures come back as results with the text to show (spec §8).
 *
 * @example
 * const result = await sendContactMessage(input);
 * if (result.status === "error") showError(result.message);
 */
export async function sendContactMessage(input: ContactMessageInput, fetchImplementation: typeof fetch = (input, init) => fetch(input, init)): Promise<ContactSendResult> {
  try {
    const body = await ky
      .post("/messages/contact/", {
        json: input,
        // Every unsafe call echoes the CSRF cookie the server set on the page (decision 0009).
        headers: { "X-CSRFToken": readCsrfTokenFromDocumentCookie() ?? "" },
        credentials: "same-origin",
        fetch: fetchImplementation,
        retry: 0,
        timeout: 20_000,
      })
      .json();
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
