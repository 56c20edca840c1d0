export { ContactForm } from "./ContactForm.tsx";
export type { ContactFormProps } from "./ContactForm.tsx";
export { AltchaCaptcha } from "./AltchaCaptcha.tsx";
export type { CaptchaProps } from "./AltchaCaptcha.tsx";
export { RecaptchaCaptcha } from "./RecaptchaCaptcha.tsx";
export { CAPTCHA_PREPARING_MESSAGE, CAPTCHA_REQUIRED_MESSAGE, CAPTCHA_UNAVAILABLE_MESSAGE, SEND_BUTTON_LABEL, SENDING_BUTTON_LABEL } from "./contact-form-texts.ts";
