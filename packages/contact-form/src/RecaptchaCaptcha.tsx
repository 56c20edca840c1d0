import { useEffect, useRef } from "react";
import type { CaptchaProps } from "./AltchaCaptcha.tsx";
import { renderRecaptcha, type RecaptchaWidget } from "./captcha-widgets.ts";

/** Google reCAPTCHA, used only when the painter configures its keys (it sends visitor data to Google). */
export function RecaptchaCaptcha({ siteKey, onTokenChange, resetCounter }: CaptchaProps & { siteKey: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const widgetRef = useRef<RecaptchaWidget | undefined>(undefined);

  useEffect(() => {
    if (!containerRef.current || widgetRef.current) return;
    widgetRef.current = renderRecaptcha({ window, container: containerRef.current, siteKey, onTokenChange });
  }, [siteKey, onTokenChange]);

  useEffect(() => {
    if (resetCounter > 0) widgetRef.current?.reset();
  }, [resetCounter]);

  return <div ref={containerRef} />;
}
