import { ContactForm as ContactFormOverClients } from "@atelier/contact-form";
import { useContactClient } from "./contact-client.ts";
import { useSiteConfigClient } from "../lib/site-config.ts";

/**
 * The contact form of `@atelier/contact-form` with the page's clients (decision 0035: from their contexts, so tests and
 * stories hand in others). The prerendered /contact runs the same markup without React (decision 0038).
 */
export function ContactForm() {
  return <ContactFormOverClients contactClient={useContactClient()} siteConfigClient={useSiteConfigClient()} />;
}
