import { createElement, useEffect, useRef, useState } from "react";
import { ALTCHA_WIDGET_CONFIGURATION, ALTCHA_WIDGET_TAG, altchaTokenOfStateChange, type AltchaWidgetElement } from "./captcha-widgets.ts";
import { CAPTCHA_PREPARING_MESSAGE } from "./contact-form-texts.ts";

export interface CaptchaProps {
  /** Called with the token once solved, and with null when it expires or is reset. */
  onTokenChange: (token: string | null) => void;
  /** Changing this number resets the widget (after a message was sent). */
  resetCounter: number;
}

/**
 * The self-hosted proof-of-work captcha: the browser solves a small puzzle our server issued; no third party is involved.
 * The widget's code (about 34 KB) is only downloaded on the contact page, after hydration.
 */
export function AltchaCaptcha({ challengeUrl, onTokenChange, resetCounter }: CaptchaProps & { challengeUrl: string }) {
  const widgetRef = useRef<AltchaWidgetElement>(null);
  const [widgetState, setWidgetState] = useState<"loading" | "ready">("loading");

  useEffect(() => {
    let cancelled = false;
    import("altcha").then(() => {
      if (!cancelled) setWidgetState("ready");
    });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    const widget = widgetRef.current;
    if (!widget || widgetState !== "ready") return;
    const handleStateChange = (event: Event) => onTokenChange(altchaTokenOfStateChange(event));
    widget.addEventListener("statechange", handleStateChange);
    return () => widget.removeEventListener("statechange", handleStateChange);
  }, [widgetState, onTokenChange]);

  useEffect(() => {
    if (resetCounter > 0) widgetRef.current?.reset?.();
  }, [resetCounter]);

  if (widgetState === "loading") return <p className="captcha-loading">{CAPTCHA_PREPARING_MESSAGE}</p>;
  return createElement(ALTCHA_WIDGET_TAG, {
    ref: widgetRef,
    challenge: challengeUrl,
    name: "altcha",
    configuration: ALTCHA_WIDGET_CONFIGURATION,
  });
}
