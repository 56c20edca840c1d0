import { createElement, useEffect, useRef, useState } from "react";

interface AltchaWidgetElement extends HTMLElement {
  reset?: () => void;
}

interface AltchaStateChangeDetail {
  state: "unverified" | "verifying" | "verified" | "expired" | "error" | "code";
  payload?: string | null;
}

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
    const handleStateChange = (event: Event) => {
      const detail = (event as CustomEvent<AltchaStateChangeDetail>).detail;
      onTokenChange(detail.state === "verified" && detail.payload ? detail.payload : null);
    };
    widget.addEventListener("statechange", handleStateChange);
    return () => widget.removeEventListener("statechange", handleStateChange);
  }, [widgetState, onTokenChange]);

  useEffect(() => {
    if (resetCounter > 0) widgetRef.current?.reset?.();
  }, [resetCounter]);

  if (widgetState === "loading") return <p className="captcha-loading">Preparing the spam check…</p>;
  return createElement("altcha-widget", {
    ref: widgetRef,
    challenge: challengeUrl,
    name: "altcha",
    configuration: JSON.stringify({ hideLogo: true, hideFooter: true }),
  });
}
