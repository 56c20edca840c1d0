import { createContactClient, type ContactMessageInput, type ContactSendResult } from "@atelier/site-api";
import { siteHttp } from "../lib/site-http.ts";

const contactClient = createContactClient(siteHttp);

/** Sends the contact form (spec §7); the result carries the text to show. */
export function sendContactMessage(input: ContactMessageInput): Promise<ContactSendResult> {
  return contactClient.sendContactMessage(input);
}
