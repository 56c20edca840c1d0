import { afterEach, describe, expect, it, vi } from "vitest";
import { altchaTokenOfStateChange, RECAPTCHA_SCRIPT_URL, renderRecaptcha, type RecaptchaWindow } from "./captcha-widgets.ts";

const recaptchaWindow = window as RecaptchaWindow;

afterEach(() => {
  delete recaptchaWindow.grecaptcha;
  delete recaptchaWindow.onAtelierRecaptchaLoaded;
  vi.restoreAllMocks();
});

/** The scripts the page would load (kept out of happy-dom, which would try to fetch them). */
function recordAppendedScripts(): string[] {
  const sources: string[] = [];
  vi.spyOn(document.head, "append").mockImplementation((...nodes) => {
    for (const node of nodes) if (node instanceof HTMLScriptElement) sources.push(node.src);
  });
  return sources;
}

describe("given a statechange of the ALTCHA widget", () => {
  it("should give its payload as the token only once verified", () => {
    expect(altchaTokenOfStateChange(new CustomEvent("statechange", { detail: { state: "verified", payload: "abc" } }))).toBe("abc");
    expect(altchaTokenOfStateChange(new CustomEvent("statechange", { detail: { state: "verifying" } }))).toBeNull();
    expect(altchaTokenOfStateChange(new CustomEvent("statechange", { detail: { state: "verified", payload: "" } }))).toBeNull();
    expect(altchaTokenOfStateChange(new Event("statechange"))).toBeNull();
  });
});

describe("given reCAPTCHA as the captcha", () => {
  it("should load Google's script once and render the widget when it calls back", () => {
    const appendedScripts = recordAppendedScripts();
    const tokens: (string | null)[] = [];
    const container = document.createElement("div");
    renderRecaptcha({ window: recaptchaWindow, container, siteKey: "site-key", onTokenChange: (token) => tokens.push(token) });
    expect(appendedScripts).toEqual([RECAPTCHA_SCRIPT_URL]);

    let parameters: Parameters<NonNullable<RecaptchaWindow["grecaptcha"]>["render"]>[1] | undefined;
    recaptchaWindow.grecaptcha = {
      render: (into, given) => {
        expect(into).toBe(container);
        parameters = given;
        return 3;
      },
      reset: () => {},
    };
    recaptchaWindow.onAtelierRecaptchaLoaded?.();
    recaptchaWindow.onAtelierRecaptchaLoaded?.();
    expect(parameters?.sitekey).toBe("site-key");
    parameters?.callback("token");
    parameters?.["expired-callback"]();
    expect(tokens).toEqual(["token", null]);
  });

  it("should render at once when Google's script is there already, and reset that widget", () => {
    const appendedScripts = recordAppendedScripts();
    const resets: (number | undefined)[] = [];
    recaptchaWindow.grecaptcha = { render: () => 5, reset: (widgetId) => resets.push(widgetId) };
    const widget = renderRecaptcha({ window: recaptchaWindow, container: document.createElement("div"), siteKey: "site-key", onTokenChange: () => {} });
    expect(appendedScripts).toEqual([]);
    widget.reset();
    expect(resets).toEqual([5]);
  });
});
