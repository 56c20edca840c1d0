import { afterEach, describe, expect, it, vi } from "vitest";
import { createAllauthClient } from "./client.ts";
import { PROVIDER_REDIRECT_FORM_ATTRIBUTE, submitProviderRedirect } from "./provider-redirect.ts";

const callbackUrl = "http://localhost:3000/account/provider/callback";

function createBrowserClient() {
  return createAllauthClient({ baseUrl: "/_allauth", clientType: "browser", readCsrfToken: () => "csrf-secret" });
}

function fieldsOf(form: HTMLFormElement) {
  return Object.fromEntries([...form.querySelectorAll("input")].map((input) => [input.name, { type: input.type, value: input.value }]));
}

describe("given submitProviderRedirect in a page", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.body.innerHTML = "";
  });

  it("should submit, once, a hidden POST form to the redirect endpoint with the provider, process, callback URL and CSRF token", () => {
    const submittedForms: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(function (this: HTMLFormElement) {
      submittedForms.push(this);
    });
    const form = submitProviderRedirect(createBrowserClient(), { provider: "local", process: "login", callbackUrl }, document);
    expect(submittedForms).toHaveLength(1);
    // happy-dom wraps forms in a proxy (for named fields), so `this` is not `===` the form: compare what was sent.
    expect(submittedForms[0]?.hasAttribute(PROVIDER_REDIRECT_FORM_ATTRIBUTE)).toBe(true);
    expect(fieldsOf(submittedForms[0]!)).toEqual(fieldsOf(form));
    expect(form.isConnected).toBe(true);
    expect(form.hidden).toBe(true);
    expect(form.getAttribute("method")?.toUpperCase()).toBe("POST");
    expect(form.getAttribute("action")).toBe("/_allauth/browser/v1/auth/provider/redirect");
    expect(fieldsOf(form)).toEqual({
      provider: { type: "hidden", value: "local" },
      process: { type: "hidden", value: "login" },
      callback_url: { type: "hidden", value: callbackUrl },
      csrfmiddlewaretoken: { type: "hidden", value: "csrf-secret" },
    });
  });

  it("should replace the form of an earlier start rather than add a second one", () => {
    vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => undefined);
    const client = createBrowserClient();
    submitProviderRedirect(client, { provider: "google", process: "login", callbackUrl }, document);
    const second = submitProviderRedirect(client, { provider: "local", process: "connect", callbackUrl: "/account/providers" }, document);
    const forms = document.querySelectorAll(`form[${PROVIDER_REDIRECT_FORM_ATTRIBUTE}]`);
    expect(forms).toHaveLength(1);
    expect(forms[0]).toBe(second);
    expect(fieldsOf(second).process?.value).toBe("connect");
  });

  it("should refuse an app-mode client, which has no redirect flow", () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => undefined);
    const client = createAllauthClient({ baseUrl: "/_allauth", clientType: "app" });
    expect(() => submitProviderRedirect(client, { provider: "google", process: "login", callbackUrl }, document)).toThrow(/browser-mode client/);
    expect(submit).not.toHaveBeenCalled();
  });
});
