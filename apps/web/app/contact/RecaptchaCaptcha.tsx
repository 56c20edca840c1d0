import { useEffect, useRef } from "react";
import type { CaptchaProps } from "./AltchaCaptcha.tsx";

interface GoogleRecaptcha {
  render: (container: HTMLElement, parameters: { sitekey: string; callback: (token: string) => void; "expired-callback": () => void }) => number;
  reset: (widgetId?: number) => void;
}

declare global {
  interface Window {
    grecaptcha?: GoogleRecaptcha;
    onAtelierRecaptchaLoaded?: () => void;
  }
}

/** Google reCAPTCHA, used only when the painter configures its keys (it sends visitor data to Google). */
export function RecaptchaCaptcha({ siteKey, onTokenChange, resetCounter }: CaptchaProps & { siteKey: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const widgetIdRef = useRef<number | undefined>(undefined);

  useEffect(() => {
    const renderWidget = () => {
      if (!containerRef.current || !window.grecaptcha || widgetIdRef.current !== undefined) return;
      widgetIdRef.current = window.grecaptcha.render(containerRef.current, {
        sitekey: siteKey,
        callback: (token) => onTokenChange(token),
        "expired-callback": () => onTokenChange(null),
      });
    };
    if (window.grecaptcha) return renderWidget();
    window.onAtelierRecaptchaLoaded = renderWidget;
    const script = document.createElement("script");
    script.src = "https://www.google.com/recaptcha/api.js?onload=onAtelierRecaptchaLoaded&render=explicit";
    script.async = true;
    document.head.append(script);
  }, [siteKey, onTokenChange]);

  useEffect(() => {
    if (resetCounter > 0) window.grecaptcha?.reset(widgetIdRef.current);
  }, [resetCounter]);

  return <div ref={containerRef} />;
}
