import type { AllauthClient } from "./client.ts";

/** Why a visitor goes to a provider: to sign in (or sign up), or to connect an account to the signed-in user. */
export type ProviderRedirectProcess = "login" | "connect";

/** What `submitProviderRedirect` needs: the provider's id, the process, and where allauth sends the browser back. */
export interface ProviderRedirectInput {
  provider: string;
  process: ProviderRedirectProcess;
  /** An absolute URL of this site (or a path); allauth appends `?error=…&error_process=…` on failure. */
  callbackUrl: string;
}

/** The attribute that marks the form, so a second start replaces the first one instead of piling forms up. */
export const PROVIDER_REDIRECT_FORM_ATTRIBUTE = "data-allauth-provider-redirect";

/**
 * Starts a third-party login or connection: builds allauth's redirect form (hidden fields, the CSRF token read now),
 * adds it to the page and submits it. That is a top-level navigation to the provider, as allauth requires, not a
 * fetch. Returns the submitted form.
 *
 * @example
 * submitProviderRedirect(client, { provider: "google", process: "login", callbackUrl: `${location.origin}/account/provider/callback` }, document);
 */
export function submitProviderRedirect(
  client: Pick<AllauthClient, "clientType" | "providerRedirectFormFields">,
  input: ProviderRedirectInput,
  targetDocument: Document,
): HTMLFormElement {
  if (client.clientType !== "browser") {
    throw new Error(
      "submitProviderRedirect needs a browser-mode client: allauth's app API has no redirect flow; an app signs in with a provider's token (POST auth/provider/token).",
    );
  }
  const { action, method, fields } = client.providerRedirectFormFields(input);
  for (const earlierForm of targetDocument.querySelectorAll(`form[${PROVIDER_REDIRECT_FORM_ATTRIBUTE}]`)) earlierForm.remove();
  const form = targetDocument.createElement("form");
  form.setAttribute(PROVIDER_REDIRECT_FORM_ATTRIBUTE, "");
  form.method = method;
  form.action = action;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const field = targetDocument.createElement("input");
    field.type = "hidden";
    field.name = name;
    field.value = value;
    form.append(field);
  }
  targetDocument.body.append(form);
  form.submit();
  return form;
}
