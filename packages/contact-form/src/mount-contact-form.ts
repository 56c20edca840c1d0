import type { ContactClient, SiteConfigClient } from "@atelier/site-api";
import { ALTCHA_WIDGET_CONFIGURATION, ALTCHA_WIDGET_TAG, altchaTokenOfStateChange, renderRecaptcha, type AltchaWidgetElement, type RecaptchaWindow } from "./captcha-widgets.ts";
import { CAPTCHA_REQUIRED_MESSAGE, CAPTCHA_UNAVAILABLE_MESSAGE, SEND_BUTTON_LABEL, SENDING_BUTTON_LABEL } from "./contact-form-texts.ts";

export interface MountContactFormOptions {
  contactClient: Pick<ContactClient, "sendContactMessage">;
  siteConfigClient: Pick<SiteConfigClient, "loadSiteConfig">;
  /** Defines `<altcha-widget>`: on the page, an import of the widget's own file, asked only when ALTCHA is the captcha. */
  loadAltchaWidget: () => Promise<unknown>;
  /** The page's window (its document, `HTMLElement`, `console`, and Google's `grecaptcha` when reCAPTCHA is used). */
  window: Window & typeof globalThis;
}

export interface MountedContactForm {
  /** Settles once the captcha is in place, or its failure is shown. */
  captchaSettled: Promise<void>;
  /** Removes the listeners (tests; a page never unmounts its form). */
  unmount: () => void;
}

type ContactFormStatus = { state: "idle" } | { state: "submitting" } | { state: "success"; message: string } | { state: "error"; message: string };

const fieldNames = ["name", "email", "message", "website"] as const;

function requireElement<Wanted extends Element>(found: Element | null | undefined, kind: abstract new () => Wanted, description: string): Wanted {
  if (found instanceof kind) return found;
  throw new Error(`mountContactForm found no ${description} in the form: it wires the markup <ContactForm> rendered, so the component and the adapter have drifted apart.`);
}

/**
 * Gives the prerendered contact form (the markup `<ContactForm>` rendered, decision 0038) the component's behaviour
 * without React: it asks which captcha the server checks, shows it in place of 'Preparing the spam check…', enables
 * Send once solved, sends through the contact client and shows the result in the form's status region, with the same
 * texts, states (`data-state`) and live regions as the component.
 *
 * @example
 * const http = createSiteHttp({ readCsrfToken: readCsrfTokenFromDocumentCookie });
 * mountContactForm(document.querySelector("form.contact-form")!, {
 *   contactClient: createContactClient(http),
 *   siteConfigClient: createSiteConfigClient(http),
 *   loadAltchaWidget: () => import(altchaWidgetUrl),
 *   window,
 * });
 */
export function mountContactForm(form: HTMLFormElement, { contactClient, siteConfigClient, loadAltchaWidget, window }: MountContactFormOptions): MountedContactForm {
  const { document } = window;
  const fields = fieldNames.map((fieldName) =>
    requireElement(form.querySelector(`[name="${fieldName}"]`), window.HTMLElement, `'${fieldName}' field`),
  ) as (HTMLInputElement | HTMLTextAreaElement)[];
  const captchaField = requireElement(form.querySelector("[data-captcha-field]"), window.HTMLElement, "[data-captcha-field]");
  let captchaSlot = requireElement(captchaField.firstElementChild, window.HTMLElement, "'Preparing the spam check…' text");
  const submitButton = requireElement(form.querySelector("button[type=submit]"), window.HTMLButtonElement, "submit button");
  const statusRegion = requireElement(form.querySelector(".form-status"), window.HTMLElement, ".form-status region");

  const captchaRequiredHint = document.createElement("p");
  captchaRequiredHint.className = "form-field__error-message";
  captchaRequiredHint.textContent = CAPTCHA_REQUIRED_MESSAGE;

  let captchaToken: string | null = null;
  let touched = false;
  let status: ContactFormStatus = { state: "idle" };
  let resetCaptcha = () => {};
  let mounted = true;

  // The component's render, as DOM changes: only what differs is touched, so the live region speaks once per change.
  const render = () => {
    form.dataset.state = status.state;
    submitButton.disabled = !captchaToken || status.state === "submitting";
    const label = status.state === "submitting" ? SENDING_BUTTON_LABEL : SEND_BUTTON_LABEL;
    if (submitButton.textContent !== label) submitButton.textContent = label;
    if (touched && !captchaToken && status.state !== "error") {
      if (captchaRequiredHint.parentNode !== captchaField) captchaField.append(captchaRequiredHint);
    } else {
      captchaRequiredHint.remove();
    }
    const shown = status.state === "success" ? { className: "form-status__success", message: status.message } : status.state === "error" ? { className: "form-status__error", message: status.message } : null;
    const current = statusRegion.firstElementChild;
    if (shown === null) {
      if (statusRegion.firstChild) statusRegion.replaceChildren();
    } else if (current?.className === shown.className) {
      if (current.textContent !== shown.message) current.textContent = shown.message;
    } else {
      const paragraph = document.createElement("p");
      paragraph.className = shown.className;
      paragraph.textContent = shown.message;
      statusRegion.replaceChildren(paragraph);
    }
  };

  const setCaptchaToken = (token: string | null) => {
    if (!mounted) return;
    captchaToken = token;
    render();
  };

  const placeCaptcha = (element: HTMLElement) => {
    captchaSlot.replaceWith(element);
    captchaSlot = element;
  };

  const showCaptcha = async () => {
    let captcha;
    try {
      captcha = (await siteConfigClient.loadSiteConfig()).captcha;
    } catch (error) {
      console.error("The site settings could not be loaded", error);
      if (!mounted) return;
      const alert = document.createElement("p");
      alert.setAttribute("role", "alert");
      alert.textContent = CAPTCHA_UNAVAILABLE_MESSAGE;
      placeCaptcha(alert);
      return;
    }
    if (!mounted) return;
    if (captcha.provider === "recaptcha") {
      const container = document.createElement("div");
      placeCaptcha(container);
      resetCaptcha = renderRecaptcha({ window: window as RecaptchaWindow, container, siteKey: captcha.siteKey, onTokenChange: setCaptchaToken }).reset;
      return;
    }
    try {
      await loadAltchaWidget();
    } catch (error) {
      // As in the app, 'Preparing the spam check…' stays: the visitor can reload, or phone.
      console.error("The spam check's code could not be loaded", error);
      return;
    }
    if (!mounted) return;
    const widget: AltchaWidgetElement = document.createElement(ALTCHA_WIDGET_TAG);
    widget.setAttribute("challenge", captcha.challengeUrl);
    widget.setAttribute("name", "altcha");
    widget.setAttribute("configuration", ALTCHA_WIDGET_CONFIGURATION);
    widget.addEventListener("statechange", (event) => setCaptchaToken(altchaTokenOfStateChange(event)));
    placeCaptcha(widget);
    resetCaptcha = () => widget.reset?.();
  };

  const handleInput = (event: Event) => {
    // The ALTCHA widget's own checkbox sends input events through the form too: only the visitor's fields count.
    if (!fields.includes(event.target as HTMLInputElement)) return;
    touched = true;
    render();
  };

  const handleSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!captchaToken) {
      touched = true;
      status = { state: "error", message: CAPTCHA_REQUIRED_MESSAGE };
      render();
      return;
    }
    status = { state: "submitting" };
    render();
    const [name, email, message, website] = fields.map((field) => field.value) as [string, string, string, string];
    const result = await contactClient.sendContactMessage({ name, email, message, website, recaptchaToken: captchaToken });
    if (!mounted) return;
    if (result.status === "sent") {
      for (const field of fields) field.value = "";
      touched = false;
      status = { state: "success", message: result.message };
    } else {
      status = { state: "error", message: result.message };
    }
    // A captcha answer is good for one message only, whatever the outcome.
    captchaToken = null;
    resetCaptcha();
    render();
  };

  form.addEventListener("input", handleInput);
  form.addEventListener("submit", handleSubmit);
  render();
  const captchaSettled = showCaptcha();

  return {
    captchaSettled,
    unmount: () => {
      mounted = false;
      form.removeEventListener("input", handleInput);
      form.removeEventListener("submit", handleSubmit);
    },
  };
}
