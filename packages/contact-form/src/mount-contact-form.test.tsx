import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CaptchaSettings, ContactMessageInput, ContactSendResult, SiteConfig } from "@atelier/site-api";
import { ContactForm } from "./ContactForm.tsx";
import { mountContactForm, type MountContactFormOptions, type MountedContactForm } from "./mount-contact-form.ts";
import type { RecaptchaWindow } from "./captcha-widgets.ts";

// A stand-in for the real widget (tested in Chromium by the web app's browser tests): it counts its resets.
class FakeAltchaWidget extends HTMLElement {
  static resets = 0;
  reset() {
    FakeAltchaWidget.resets += 1;
  }
}
const defineFakeAltchaWidget = async () => {
  if (!customElements.get("altcha-widget")) customElements.define("altcha-widget", FakeAltchaWidget);
};

function deferred<Value>() {
  let resolve!: (value: Value) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Value>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}

const altcha: CaptchaSettings = { provider: "altcha", challengeUrl: "/captcha/challenge" };
const siteConfigWith = (captcha: CaptchaSettings): SiteConfig => ({ captcha, analytics: null });

let mounted: MountedContactForm | null = null;
let sentMessages: ContactMessageInput[] = [];

/** The prerendered page: the component's own markup, as the web app's build writes it. */
function renderPrerenderedForm(): HTMLFormElement {
  const neverAsked = { sendContactMessage: async () => ({ status: "sent", message: "" }) as const };
  document.body.innerHTML = renderToString(<ContactForm contactClient={neverAsked} siteConfigClient={{ loadSiteConfig: () => new Promise(() => {}) }} />);
  return document.querySelector("form.contact-form") as HTMLFormElement;
}

function mountOnPrerenderedForm(options: Partial<MountContactFormOptions> & { answer?: () => Promise<ContactSendResult> } = {}) {
  const form = renderPrerenderedForm();
  const answer = options.answer ?? (async () => ({ status: "sent", message: "Thank you! Your message has been sent." }) as const);
  mounted = mountContactForm(form, {
    contactClient: {
      sendContactMessage: async (input) => {
        sentMessages.push(input);
        return answer();
      },
    },
    siteConfigClient: options.siteConfigClient ?? { loadSiteConfig: async () => siteConfigWith(altcha) },
    loadAltchaWidget: options.loadAltchaWidget ?? defineFakeAltchaWidget,
    window,
  });
  return form;
}

const sendButton = () => document.querySelector("button[type=submit]") as HTMLButtonElement;
const statusRegion = () => document.querySelector(".form-status") as HTMLElement;
const field = (name: string) => document.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLTextAreaElement;
const altchaWidget = () => document.querySelector("altcha-widget") as FakeAltchaWidget;
const captchaHint = () => document.querySelector("[data-captcha-field] .form-field__error-message");

function type(name: string, value: string) {
  field(name).value = value;
  field(name).dispatchEvent(new Event("input", { bubbles: true }));
}

function solveAltcha(payload = "solved-payload") {
  altchaWidget().dispatchEvent(new CustomEvent("statechange", { detail: { state: "verified", payload } }));
}

function submit() {
  (document.querySelector("form") as HTMLFormElement).dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
}

async function settle() {
  for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
}

beforeEach(() => {
  sentMessages = [];
  FakeAltchaWidget.resets = 0;
});

afterEach(() => {
  mounted?.unmount();
  mounted = null;
  document.body.innerHTML = "";
  delete (window as RecaptchaWindow).grecaptcha;
  vi.restoreAllMocks();
});

describe("given the prerendered contact form", () => {
  it("should say 'Preparing the spam check…' with Send disabled until the server says which captcha to show", () => {
    const siteConfig = deferred<SiteConfig>();
    mountOnPrerenderedForm({ siteConfigClient: { loadSiteConfig: () => siteConfig.promise } });
    expect(document.querySelector("[data-captcha-field] .captcha-loading")?.textContent).toBe("Preparing the spam check…");
    expect(sendButton().disabled).toBe(true);
    expect(sendButton().textContent).toBe("Send");
    expect(document.querySelector("form")?.dataset.state).toBe("idle");
  });

  it("should show the ALTCHA widget with the server's challenge once its code is there, and enable Send when it is solved", async () => {
    const widgetCode = deferred<void>();
    mountOnPrerenderedForm({ loadAltchaWidget: () => widgetCode.promise.then(defineFakeAltchaWidget) });
    await settle();
    expect(document.querySelector(".captcha-loading")).not.toBeNull();
    widgetCode.resolve();
    await mounted?.captchaSettled;
    expect(document.querySelector(".captcha-loading")).toBeNull();
    expect(altchaWidget().getAttribute("challenge")).toBe("/captcha/challenge");
    expect(altchaWidget().getAttribute("name")).toBe("altcha");
    expect(JSON.parse(altchaWidget().getAttribute("configuration") ?? "")).toEqual({ hideLogo: true, hideFooter: true });
    expect(sendButton().disabled).toBe(true);
    solveAltcha();
    expect(sendButton().disabled).toBe(false);
    altchaWidget().dispatchEvent(new CustomEvent("statechange", { detail: { state: "expired", payload: null } }));
    expect(sendButton().disabled).toBe(true);
  });

  it("should say the spam check could not be loaded when the site settings fail", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    mountOnPrerenderedForm({ siteConfigClient: { loadSiteConfig: async () => Promise.reject(new Error("offline")) } });
    await mounted?.captchaSettled;
    const alert = document.querySelector("[data-captcha-field] [role=alert]");
    expect(alert?.textContent).toBe("The spam check could not be loaded. Please reload the page, or phone us.");
    expect(document.querySelector(".captcha-loading")).toBeNull();
    expect(sendButton().disabled).toBe(true);
    expect(logged).toHaveBeenCalled();
  });

  it("should keep 'Preparing the spam check…' when the widget's code cannot be loaded, as the app does", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    mountOnPrerenderedForm({ loadAltchaWidget: async () => Promise.reject(new Error("offline")) });
    await mounted?.captchaSettled;
    expect(document.querySelector(".captcha-loading")?.textContent).toBe("Preparing the spam check…");
  });

  it("should ask for the captcha in the error colour's hint once the visitor typed, and not for the widget's own clicks", async () => {
    mountOnPrerenderedForm();
    await mounted?.captchaSettled;
    altchaWidget().append(Object.assign(document.createElement("input"), { type: "checkbox" }));
    altchaWidget().querySelector("input")?.dispatchEvent(new Event("input", { bubbles: true }));
    expect(captchaHint()).toBeNull();
    type("name", "Ada");
    expect(captchaHint()?.textContent).toBe("Please complete the captcha verification");
    expect(document.querySelector("[data-captcha-field]")?.lastElementChild).toBe(captchaHint());
    solveAltcha();
    expect(captchaHint()).toBeNull();
  });

  it("should say 'Please complete the captcha verification' in the status region when sent without an answer", async () => {
    mountOnPrerenderedForm();
    await mounted?.captchaSettled;
    submit();
    expect(statusRegion().innerHTML).toBe('<p class="form-status__error">Please complete the captcha verification</p>');
    expect(captchaHint()).toBeNull();
    expect(document.querySelector("form")?.dataset.state).toBe("error");
    expect(sentMessages).toEqual([]);
  });

  it("should send the fields with the captcha's answer, say 'Sending...' meanwhile, then thank, clear the form and reset the captcha", async () => {
    const answer = deferred<ContactSendResult>();
    mountOnPrerenderedForm({ answer: () => answer.promise });
    await mounted?.captchaSettled;
    type("name", "Ada Lovelace");
    type("email", "ada@example.com");
    type("message", "I would like to see Janus Unmasked in person.");
    solveAltcha("the-payload");
    submit();
    expect(sendButton().textContent).toBe("Sending...");
    expect(sendButton().disabled).toBe(true);
    expect(document.querySelector("form")?.dataset.state).toBe("submitting");
    expect(sentMessages).toEqual([{ name: "Ada Lovelace", email: "ada@example.com", message: "I would like to see Janus Unmasked in person.", website: "", recaptchaToken: "the-payload" }]);

    answer.resolve({ status: "sent", message: "Thank you! Your message has been sent." });
    await settle();
    expect(statusRegion().getAttribute("role")).toBe("status");
    expect(statusRegion().getAttribute("aria-live")).toBe("polite");
    expect(statusRegion().innerHTML).toBe('<p class="form-status__success">Thank you! Your message has been sent.</p>');
    expect(["name", "email", "message", "website"].map((name) => field(name).value)).toEqual(["", "", "", ""]);
    expect(FakeAltchaWidget.resets).toBe(1);
    expect(sendButton().textContent).toBe("Send");
    expect(sendButton().disabled).toBe(true);
    expect(captchaHint()).toBeNull();
    expect(document.querySelector("form")?.dataset.state).toBe("success");
  });

  it("should keep the fields, show the error and ask for a new captcha answer when the message is refused", async () => {
    mountOnPrerenderedForm({ answer: async () => ({ status: "error", message: "Network error. Please try again." }) });
    await mounted?.captchaSettled;
    type("message", "First try");
    solveAltcha();
    submit();
    await settle();
    expect(statusRegion().innerHTML).toBe('<p class="form-status__error">Network error. Please try again.</p>');
    expect(field("message").value).toBe("First try");
    expect(FakeAltchaWidget.resets).toBe(1);
    expect(sendButton().disabled).toBe(true);
    // The form's error is said once: no second hint under the captcha.
    expect(captchaHint()).toBeNull();

    solveAltcha();
    expect(statusRegion().textContent).toBe("Network error. Please try again.");
    submit();
    expect(statusRegion().innerHTML).toBe("");
  });

  it("should send the honeypot as typed, for the server to refuse robots", async () => {
    mountOnPrerenderedForm();
    await mounted?.captchaSettled;
    type("website", "https://spam.example");
    solveAltcha();
    submit();
    await settle();
    expect(sentMessages[0]?.website).toBe("https://spam.example");
  });

  it("should render Google's reCAPTCHA in the captcha's place when the server uses it, and reset it after sending", async () => {
    let renderedInto: HTMLElement | undefined;
    let answerCallback: ((token: string) => void) | undefined;
    const resets: (number | undefined)[] = [];
    (window as RecaptchaWindow).grecaptcha = {
      render: (container, parameters) => {
        renderedInto = container;
        answerCallback = parameters.callback;
        return 7;
      },
      reset: (widgetId) => resets.push(widgetId),
    };
    const loadAltchaWidget = vi.fn(defineFakeAltchaWidget);
    mountOnPrerenderedForm({ siteConfigClient: { loadSiteConfig: async () => siteConfigWith({ provider: "recaptcha", siteKey: "site-key" }) }, loadAltchaWidget });
    await mounted?.captchaSettled;
    expect(renderedInto?.parentElement?.hasAttribute("data-captcha-field")).toBe(true);
    expect(document.querySelector(".captcha-loading")).toBeNull();
    expect(loadAltchaWidget).not.toHaveBeenCalled();
    answerCallback?.("google-token");
    expect(sendButton().disabled).toBe(false);
    submit();
    await settle();
    expect(sentMessages[0]?.recaptchaToken).toBe("google-token");
    expect(resets).toEqual([7]);
  });
});
