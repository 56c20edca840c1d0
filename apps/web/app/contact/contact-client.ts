import { createContactClient, type ContactMessageInput, type ContactSendResult } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

export { CONTACT_FALLBACK_ERROR_MESSAGE, CONTACT_NETWORK_ERROR_MESSAGE, CONTACT_SENT_MESSAGE, CONTACT_TOO_LARGE_MESSAGE } from "@atelier/site-api";
export type { ContactMessageInput, ContactSendResult } from "@atelier/site-api";

const contactClient = createContactClient(siteHttp);

/** Sends the contact form (spec §7); the result carries the text to show. */
export function sendContactMessage(input: ContactMessageInput): Promise<ContactSendResult> {
  return contactClient.sendContactMessage(input);
}
