import { artistProfile } from "@atelier/catalogue";
import { ContactForm } from "../contact/ContactForm.tsx";
import { ThirdPartyEmbedGate } from "../components/ThirdPartyEmbedGate.tsx";
import { createPageMeta } from "../lib/site-meta.ts";
import { contactShellHandle } from "../site-shell/use-site-shell.ts";

/** Prerendered without React: the form's own script and the site shell wire it (decision 0038). */
export const handle = contactShellHandle;

export const meta = () =>
  createPageMeta({
    title: "Contact",
    description: `Write to ${artistProfile.name}, or visit the studio in Clarens: ${artistProfile.galleryHours}.`,
    path: "/contact",
  });

/** The map behind its gate: React draws it in the app, `@atelier/site-shell` on the prerendered page. */
const studioMap = { src: artistProfile.map.embedUrl, title: "Map of the studio in Clarens", className: "studio-map" };

export default function ContactPage() {
  const { address } = artistProfile;
  return (
    <div className="page contact-page">
      <h1>Contact</h1>
      <div className="contact-page__columns">
        <section aria-labelledby="contact-form-heading">
          <h2 id="contact-form-heading">Send a message</h2>
          <ContactForm />
        </section>
        <section aria-labelledby="studio-heading" className="studio-details">
          <h2 id="studio-heading">The studio</h2>
          <address>
            {artistProfile.studioName}
            <br />
            {address.street}
            <br />
            {address.postalCode} {address.locality}
            <br />
            {address.country}
          </address>
          <p>
            Phone: <a href={`tel:${artistProfile.phone.replace(/\s+/g, "")}`}>{artistProfile.phone}</a>
          </p>
          <p>Gallery hours: {artistProfile.galleryHours}</p>
          <ul className="social-links">
            {artistProfile.socialLinks.map((link) => (
              <li key={link.url}>
                <a href={link.url} rel="noopener noreferrer" target="_blank">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
          <ThirdPartyEmbedGate providerName="OpenStreetMap" buttonLabel="Show the map" width={480} height={360} staticEmbed={{ kind: "frame", ...studioMap }}>
            {() => <iframe className={studioMap.className} title={studioMap.title} src={studioMap.src} width={480} height={360} loading="lazy" />}
          </ThirdPartyEmbedGate>
          <p>
            <a href={artistProfile.map.linkUrl} rel="noopener noreferrer" target="_blank">
              Open the map in a new tab
            </a>
          </p>
        </section>
      </div>
    </div>
  );
}
