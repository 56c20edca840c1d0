import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { Button } from "@atelier/ui";
import { readCsrfTokenFromDocumentCookie } from "@atelier/auth";
import { BILLING_PATHS, CSRF_FORM_FIELD_NAME } from "@atelier/site-api";

export interface StripePortalSessionPageProps {
  /** Submits the form on arrival; tests pass a spy (happy-dom does not navigate). */
  submitForm?: (form: HTMLFormElement) => void;
}

/**
 * /stripe-portal-session (spec §2.3): a real form post with the CSRF field, submitted on arrival; the server answers
 * with a redirect to the billing portal. The button covers slow scripts and a blocked automatic submit.
 */
export function StripePortalSessionPage({ submitForm = (form) => form.submit() }: StripePortalSessionPageProps) {
  const formReference = useRef<HTMLFormElement>(null);
  const hasSubmitted = useRef(false);
  const latestSubmitForm = useRef(submitForm);
  latestSubmitForm.current = submitForm;
  const csrfToken = readCsrfTokenFromDocumentCookie() ?? "";
  // 'Upgrade Plan' and 'Downgrade Plan' carry the card's price: the portal then opens on that change (issue 13).
  const navigationPriceId = (useLocation().state as { priceId?: unknown } | null)?.priceId;
  const priceId = typeof navigationPriceId === "string" ? navigationPriceId : undefined;

  useEffect(() => {
    // Strict mode runs effects twice in development; one post is enough.
    if (hasSubmitted.current || formReference.current === null) return;
    hasSubmitted.current = true;
    latestSubmitForm.current(formReference.current);
  }, []);

  return (
    <section className="page page--narrow billing-page" aria-labelledby="portal-heading">
      <h1 id="portal-heading">Billing</h1>
      <p role="status">Opening the billing portal…</p>
      <form ref={formReference} method="post" action={BILLING_PATHS.createPortalSession} className="billing-portal-form">
        <input type="hidden" name={CSRF_FORM_FIELD_NAME} value={csrfToken} />
        {priceId ? <input type="hidden" name="price_id" value={priceId} /> : null}
        <p>If nothing happens in a few seconds, open it yourself:</p>
        <Button type="submit" variant="secondary">
          Open the billing portal
        </Button>
      </form>
    </section>
  );
}
