import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "@atelier/ui";
import type { CaptchaSettings, ContactClient, SiteConfigClient } from "@atelier/site-api";
import { AltchaCaptcha } from "./AltchaCaptcha.tsx";
import { RecaptchaCaptcha } from "./RecaptchaCaptcha.tsx";
import { CAPTCHA_PREPARING_MESSAGE, CAPTCHA_REQUIRED_MESSAGE, CAPTCHA_UNAVAILABLE_MESSAGE, SEND_BUTTON_LABEL, SENDING_BUTTON_LABEL } from "./contact-form-texts.ts";

export interface ContactFormProps {
  /** Sends the message (`@atelier/site-api`); the web app hands its page's client down from a context. */
  contactClient: ContactClient;
  /** Says which captcha the server checks. */
  siteConfigClient: SiteConfigClient;
}

type ContactFormStatus = { state: "idle" } | { state: "submitting" } | { state: "success"; message: string } | { state: "error"; message: string };

const emptyFields = { name: "", email: "", message: "", website: "" };

function CaptchaField({ siteConfigClient, onTokenChange, resetCounter }: { siteConfigClient: SiteConfigClient; onTokenChange: (token: string | null) => void; resetCounter: number }) {
  const [captchaSettings, setCaptchaSettings] = useState<CaptchaSettings | "loading" | "unavailable">("loading");
  // Asked for after hydration rather than by a clientLoader: /contact is prerendered with its form (decisions 0004,
  // 0038), and a loader would put its HydrateFallback in the prerendered page instead.
  useEffect(() => {
    siteConfigClient
      .loadSiteConfig()
      .then((config) => setCaptchaSettings(config.captcha))
      .catch((error: unknown) => {
        console.error("The site settings could not be loaded", error);
        setCaptchaSettings("unavailable");
      });
  }, [siteConfigClient]);
  if (captchaSettings === "loading") return <p className="captcha-loading">{CAPTCHA_PREPARING_MESSAGE}</p>;
  if (captchaSettings === "unavailable") return <p role="alert">{CAPTCHA_UNAVAILABLE_MESSAGE}</p>;
  if (captchaSettings.provider === "recaptcha") return <RecaptchaCaptcha siteKey={captchaSettings.siteKey} onTokenChange={onTokenChange} resetCounter={resetCounter} />;
  return <AltchaCaptcha challengeUrl={captchaSettings.challengeUrl} onTokenChange={onTokenChange} resetCounter={resetCounter} />;
}

/**
 * Name, e-mail, message and captcha; states idle → submitting ('Sending...') → success (cleared) or error (spec §4, §5).
 * Its markup is also what `mountContactForm` (`./dom`) wires on the prerendered /contact, so a change here is made
 * there too; the DOM entry's tests render this component first.
 *
 * @example
 * <ContactForm contactClient={createContactClient(http)} siteConfigClient={createSiteConfigClient(http)} />
 */
export function ContactForm({ contactClient, siteConfigClient }: ContactFormProps) {
  const [fields, setFields] = useState(emptyFields);
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [captchaResetCounter, setCaptchaResetCounter] = useState(0);
  const [status, setStatus] = useState<ContactFormStatus>({ state: "idle" });
  const [touched, setTouched] = useState(false);
  const formId = useId();

  const handleTokenChange = useCallback((token: string | null) => setCaptchaToken(token), []);

  const updateField = (fieldName: keyof typeof emptyFields) => (event: { target: { value: string } }) => {
    setTouched(true);
    setFields((current) => ({ ...current, [fieldName]: event.target.value }));
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!captchaToken) {
      setTouched(true);
      setStatus({ state: "error", message: CAPTCHA_REQUIRED_MESSAGE });
      return;
    }
    setStatus({ state: "submitting" });
    const result = await contactClient.sendContactMessage({ ...fields, recaptchaToken: captchaToken });
    if (result.status === "sent") {
      setFields(emptyFields);
      setTouched(false);
      setStatus({ state: "success", message: result.message });
    } else {
      setStatus({ state: "error", message: result.message });
    }
    // A captcha answer is good for one message only, whatever the outcome.
    setCaptchaToken(null);
    setCaptchaResetCounter((counter) => counter + 1);
  };

  const submitting = status.state === "submitting";

  return (
    <form className="contact-form" onSubmit={handleSubmit} aria-describedby={`${formId}-status`} data-state={status.state}>
      <div className="form-field">
        <label htmlFor={`${formId}-name`}>Name</label>
        <input id={`${formId}-name`} name="name" autoComplete="name" required maxLength={200} value={fields.name} onChange={updateField("name")} />
      </div>
      <div className="form-field">
        <label htmlFor={`${formId}-email`}>Email</label>
        <input id={`${formId}-email`} name="email" type="email" autoComplete="email" required maxLength={254} value={fields.email} onChange={updateField("email")} />
      </div>
      <div className="form-field">
        <label htmlFor={`${formId}-message`}>Message</label>
        <textarea id={`${formId}-message`} name="message" rows={5} required maxLength={5000} value={fields.message} onChange={updateField("message")} />
      </div>
      <div className="form-honeypot">
        <label htmlFor={`${formId}-website`}>Leave this field empty</label>
        <input id={`${formId}-website`} name="website" tabIndex={-1} autoComplete="off" value={fields.website} onChange={updateField("website")} />
      </div>
      <div className="form-field" data-captcha-field="">
        <CaptchaField siteConfigClient={siteConfigClient} onTokenChange={handleTokenChange} resetCounter={captchaResetCounter} />
        {touched && !captchaToken && status.state !== "error" ? <p className="form-field__error-message">{CAPTCHA_REQUIRED_MESSAGE}</p> : null}
      </div>
      <Button type="submit" disabled={!captchaToken || submitting}>
        {submitting ? SENDING_BUTTON_LABEL : SEND_BUTTON_LABEL}
      </Button>
      <div id={`${formId}-status`} className="form-status" role="status" aria-live="polite">
        {status.state === "success" ? <p className="form-status__success">{status.message}</p> : null}
        {status.state === "error" ? <p className="form-status__error">{status.message}</p> : null}
      </div>
    </form>
  );
}
