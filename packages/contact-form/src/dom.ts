// The framework-free entry, "@atelier/contact-form/dom": the same form without React, on prerendered markup.
export { mountContactForm } from "./mount-contact-form.ts";
export type { MountContactFormOptions, MountedContactForm } from "./mount-contact-form.ts";
export { CONTACT_PAGE_SCRIPT_SELECTOR, startContactPage } from "./contact-page.ts";
export { ALTCHA_WIDGET_CONFIGURATION, ALTCHA_WIDGET_TAG, altchaTokenOfStateChange, RECAPTCHA_SCRIPT_URL, renderRecaptcha } from "./captcha-widgets.ts";
export type { AltchaWidgetElement, RecaptchaWidget, RecaptchaWindow } from "./captcha-widgets.ts";
export { CAPTCHA_PREPARING_MESSAGE, CAPTCHA_REQUIRED_MESSAGE, CAPTCHA_UNAVAILABLE_MESSAGE, SEND_BUTTON_LABEL, SENDING_BUTTON_LABEL } from "./contact-form-texts.ts";
