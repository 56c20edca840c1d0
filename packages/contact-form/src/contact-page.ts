import { readCsrfTokenFromDocumentCookie } from "@atelier/auth";
import { createContactClient, createSiteConfigClient, createSiteHttp } from "@atelier/site-api";
import { mountContactForm, type MountedContactForm } from "./mount-contact-form.ts";

/** The page script's tag; its `data-altcha-widget-src` names the widget's file (fingerprinted by the web app's build). */
export const CONTACT_PAGE_SCRIPT_SELECTOR = "script[data-contact-page]";

/**
 * The prerendered /contact's form without React: the site's clients over one `createSiteHttp` with the CSRF cookie,
 * as the app's `site-http.ts` makes them, and the ALTCHA widget imported from the address its script tag names.
 * Returns null on a page without the form.
 *
 * @example
 * startContactPage({ window }); // the whole of dist/contact-page.js
 */
export function startContactPage({ window }: { window: Window & typeof globalThis }): MountedContactForm | null {
  const { document } = window;
  const form = document.querySelector("form.contact-form");
  if (!(form instanceof window.HTMLFormElement)) return null;
  const altchaWidgetUrl = document.querySelector<HTMLScriptElement>(CONTACT_PAGE_SCRIPT_SELECTOR)?.dataset.altchaWidgetSrc;
  const http = createSiteHttp({ readCsrfToken: readCsrfTokenFromDocumentCookie });
  return mountContactForm(form, {
    contactClient: createContactClient(http),
    siteConfigClient: createSiteConfigClient(http),
    loadAltchaWidget: () =>
      altchaWidgetUrl
        ? import(/* @vite-ignore */ altchaWidgetUrl)
        : Promise.reject(new Error(`The contact page's script tag has no data-altcha-widget-src: the web app's DocumentScripts must name the widget's file.`)),
    window,
  });
}
