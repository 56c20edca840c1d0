// The two captchas without a framework: both adapters (ContactForm.tsx and mount-contact-form.ts) call these.

/** The ALTCHA widget's `configuration` attribute: no logo, no footer (the page says what the check is for). */
export const ALTCHA_WIDGET_CONFIGURATION = JSON.stringify({ hideLogo: true, hideFooter: true });

/** The custom element's tag; it exists once the `altcha` module ran. */
export const ALTCHA_WIDGET_TAG = "altcha-widget";

export interface AltchaWidgetElement extends HTMLElement {
  reset?: () => void;
}

interface AltchaStateChangeDetail {
  state: "unverified" | "verifying" | "verified" | "expired" | "error" | "code";
  payload?: string | null;
}

/** The token a `statechange` event of the ALTCHA widget carries: its payload once verified, otherwise none. */
export function altchaTokenOfStateChange(event: Event): string | null {
  const detail = (event as CustomEvent<AltchaStateChangeDetail | undefined>).detail;
  return detail?.state === "verified" && detail.payload ? detail.payload : null;
}

interface GoogleRecaptcha {
  render: (container: HTMLElement, parameters: { sitekey: string; callback: (token: string) => void; "expired-callback": () => void }) => number;
  reset: (widgetId?: number) => void;
}

export type RecaptchaWindow = Window & { grecaptcha?: GoogleRecaptcha; onAtelierRecaptchaLoaded?: () => void };

export const RECAPTCHA_SCRIPT_URL = "https://www.google.com/recaptcha/api.js?onload=onAtelierRecaptchaLoaded&render=explicit";

export interface RecaptchaWidget {
  /** Asks for a new answer (an answer is good for one message only). */
  reset: () => void;
}

/**
 * Google reCAPTCHA in `container`, used only when the painter configured its keys (it sends visitor data to Google):
 * loads Google's script once if it is not there, then renders the widget.
 *
 * @example
 * const widget = renderRecaptcha({ window, container, siteKey, onTokenChange: (token) => (captchaToken = token) });
 * widget.reset();
 */
export function renderRecaptcha({ window, container, siteKey, onTokenChange }: { window: RecaptchaWindow; container: HTMLElement; siteKey: string; onTokenChange: (token: string | null) => void }): RecaptchaWidget {
  let widgetId: number | undefined;
  const renderWidget = () => {
    if (!window.grecaptcha || widgetId !== undefined) return;
    widgetId = window.grecaptcha.render(container, {
      sitekey: siteKey,
      callback: (token) => onTokenChange(token),
      "expired-callback": () => onTokenChange(null),
    });
  };
  if (window.grecaptcha) {
    renderWidget();
  } else {
    window.onAtelierRecaptchaLoaded = renderWidget;
    const script = window.document.createElement("script");
    script.src = RECAPTCHA_SCRIPT_URL;
    script.async = true;
    window.document.head.append(script);
  }
  return { reset: () => window.grecaptcha?.reset(widgetId) };
}
