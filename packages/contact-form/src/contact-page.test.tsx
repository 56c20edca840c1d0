import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ContactForm } from "./ContactForm.tsx";
import { startContactPage } from "./contact-page.ts";
import type { MountedContactForm } from "./mount-contact-form.ts";
import type { RecaptchaWindow } from "./captcha-widgets.ts";

let page: MountedContactForm | null = null;

/** The prerendered /contact: the form and the page script's tag as the web app's DocumentScripts writes it (no src here: happy-dom would fetch it). */
function renderPage({ altchaWidgetSrc }: { altchaWidgetSrc?: string } = {}) {
  const form = renderToString(<ContactForm contactClient={{ sendContactMessage: () => new Promise(() => {}) }} siteConfigClient={{ loadSiteConfig: () => new Promise(() => {}) }} />);
  const widgetAttribute = altchaWidgetSrc === undefined ? "" : ` data-altcha-widget-src="${altchaWidgetSrc}"`;
  document.body.innerHTML = `<main>${form}</main><script type="module" data-contact-page=""${widgetAttribute}></script>`;
}

function answeringServer(siteConfig: unknown) {
  const requests: Request[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request);
    if (new URL(request.url).pathname === "/site-config") return Response.json(siteConfig);
    return Response.json({ message: "Thank you! Your message has been sent." }, { status: 201 });
  });
  return requests;
}

afterEach(() => {
  page?.unmount();
  page = null;
  document.body.innerHTML = "";
  document.cookie = "csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT";
  delete (window as RecaptchaWindow).grecaptcha;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("given the prerendered /contact with its page script", () => {
  it("should do nothing on a page without the form", () => {
    document.body.innerHTML = "<main><h1>About</h1></main>";
    expect(startContactPage({ window })).toBeNull();
  });

  it("should ask the site settings and send the message through the site's clients, echoing the CSRF cookie", async () => {
    const requests = answeringServer({ captcha: { provider: "recaptcha", siteKey: "site-key" }, analytics: null });
    let answerCallback: ((token: string) => void) | undefined;
    (window as RecaptchaWindow).grecaptcha = {
      render: (_container, parameters) => {
        answerCallback = parameters.callback;
        return 1;
      },
      reset: () => {},
    };
    document.cookie = "csrftoken=token-from-cookie";
    renderPage({ altchaWidgetSrc: "/assets/altcha-widget-abc.js" });
    page = startContactPage({ window });
    await page?.captchaSettled;
    answerCallback?.("google-token");
    const form = document.querySelector("form") as HTMLFormElement;
    (form.querySelector("[name=message]") as HTMLTextAreaElement).value = "Hello";
    form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(document.querySelector(".form-status__success")?.textContent).toBe("Thank you! Your message has been sent."));

    expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual(["GET /site-config", "POST /messages/contact/"]);
    expect(requests[1]?.headers.get("X-CSRFToken")).toBe("token-from-cookie");
    expect(await requests[1]?.json()).toEqual({ name: "", email: "", message: "Hello", website: "", recaptchaToken: "google-token" });
  });

  it("should keep 'Preparing the spam check…' and say why in the console when its tag names no widget file", async () => {
    answeringServer({ captcha: { provider: "altcha", challengeUrl: "/captcha/challenge" }, analytics: null });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    renderPage();
    page = startContactPage({ window });
    await page?.captchaSettled;
    expect(document.querySelector(".captcha-loading")?.textContent).toBe("Preparing the spam check…");
    expect(String(logged.mock.calls[0]?.[1])).toContain("data-altcha-widget-src");
  });
});
