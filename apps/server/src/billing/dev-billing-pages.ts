import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { themeInitializationScript } from "@atelier/ui/theme-core";
import { escapeHtml } from "../http/escape-html.ts";
import type { HttpError } from "../http/http-errors.ts";
import { createCsrfToken, csrfCookieName, csrfFormFieldName, setCsrfCookie } from "../identity/csrf.ts";
import type { DevProvider } from "./dev-provider.ts";
import type { PlanCatalogue, PlanPrice } from "./plans.ts";

const style =
  "body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1d1d1f}" +
  ".note{background:#fff4d6;border:1px solid #e0b84a;padding:.5rem 1rem;border-radius:.5rem}" +
  ".ok{background:#e4f6e4;border-color:#4a9d4a}.error{background:#fde4e4;border-color:#c44}" +
  "form{display:inline-block;margin:.25rem .5rem .25rem 0}button{font:inherit;padding:.5rem 1rem;border-radius:.5rem;border:1px solid #555;background:#fff;cursor:pointer}" +
  "button.primary{background:#1d4ed8;color:#fff;border-color:#1d4ed8}button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}" +
  "section{border-top:1px solid #ccc;padding:1rem 0}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dd{margin:0}" +
  // The site's dark theme, as the visitor chose it there (devBillingThemeScript) or, before the script runs, as the system prefers.
  ":root{color-scheme:light}:root[data-theme=dark]{color-scheme:dark}" +
  "[data-theme=dark] body{background:#161616;color:#ececec}[data-theme=dark] a{color:#9cc2ff}" +
  "[data-theme=dark] .note{background:#3a2f12;border-color:#a8862c}[data-theme=dark] .ok{background:#163216;border-color:#3f8a3f}[data-theme=dark] .error{background:#3d1818;border-color:#c44}" +
  "[data-theme=dark] button{background:#262626;color:#ececec;border-color:#8a8a8a}[data-theme=dark] button.primary{background:#1d4ed8;border-color:#6b93f5;color:#fff}[data-theme=dark] section{border-color:#444}";

/**
 * The site's theme on these pages, served from this origin (`script-src 'self'`): the same script the site runs in its
 * `<head>` (the visitor's choice from the theme toggle, else the system's preference).
 */
export const devBillingThemeScript = themeInitializationScript;

function formatPrice(price: PlanPrice): string {
  return `CHF ${(price.amountInCents / 100).toFixed(2)} per ${price.interval}`;
}

function describePrice(price: PlanPrice | undefined, priceId: string): string {
  return price ? `${price.plan.name} (${price.interval === "month" ? "monthly" : "yearly"}), ${formatPrice(price)}` : `Unknown price ${priceId}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Atelier development billing</title><script src="/dev/billing/theme.js"></script><style>${style}</style></head>
<body><main>
<p class="note">Development payment provider: no real payment happens here.</p>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

function csrfTokenFor(c: Context, secureCookies: boolean): string {
  const existing = getCookie(c, csrfCookieName);
  if (existing) return existing;
  const token = createCsrfToken();
  setCsrfCookie(c, token, secureCookies);
  return token;
}

function button(action: string, label: string, csrfToken: string, fields: Record<string, string> = {}, primary = false): string {
  const hidden = Object.entries({ [csrfFormFieldName]: csrfToken, ...fields })
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return `<form method="post" action="${escapeHtml(action)}">${hidden}<button type="submit"${primary ? ' class="primary"' : ""}>${escapeHtml(label)}</button></form>`;
}

/**
 * The page of a failed development checkout or portal step: the server's one `onError` renders it for `/dev/billing/`.
 *
 * @example
 * app.onError(createErrorHandler({ renderPage: (error) => devBillingErrorPage(error, publicOrigin) }));
 */
export function devBillingErrorPage(error: HttpError, publicOrigin: string): string {
  return page("This did not work", `<p class="note error" role="alert">${escapeHtml(error.message)}</p><p><a href="${escapeHtml(publicOrigin)}/pricing">Back to the shop</a></p>`);
}

/**
 * The development provider's checkout and portal pages (`/dev/billing/…`), mounted only with the dev provider.
 * Buttons post forms to this server (CSRF field included) and redirect (303) afterwards.
 */
export function createDevBillingPages(options: { dev: DevProvider; catalogue: PlanCatalogue; publicOrigin: string }) {
  const { dev, catalogue } = options;
  const secureCookies = options.publicOrigin.startsWith("https:");
  const app = new Hono();

  // Every page shows one customer's checkout or subscriptions, and its forms carry that visitor's CSRF token.
  app.use(async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  });

  app.get("/theme.js", (c) => c.body(devBillingThemeScript, 200, { "Content-Type": "text/javascript; charset=utf-8" }));

  const notFound = (c: Context, what: string) =>
    c.html(page(`No such ${what}`, `<p>This ${what} does not exist. Start again from the <a href="${escapeHtml(options.publicOrigin)}/pricing">pricing page</a>.</p>`), 404);

  app.get("/checkout/:sessionId", async (c) => {
    const sessionId = c.req.param("sessionId");
    const session = await dev.findCheckoutSession(sessionId);
    if (!session) return notFound(c, "checkout session");
    const token = csrfTokenFor(c, secureCookies);
    const price = catalogue.findPrice(session.price_id);
    const base = `/dev/billing/checkout/${encodeURIComponent(sessionId)}`;
    const failed = c.req.query("payment") === "failed";
    const summary = `<dl><dt>Plan</dt><dd>${escapeHtml(describePrice(price, session.price_id))}</dd></dl>`;
    if (session.status !== "open") {
      return c.html(page("Checkout", `${summary}<p role="status">This checkout session is ${escapeHtml(session.status)}.</p><p><a href="${escapeHtml(options.publicOrigin)}/pricing">Back to the shop</a></p>`));
    }
    const failure = failed
      ? `<p class="note error" role="alert">Payment failed: the card was declined. No plan was started.</p><p><a href="${escapeHtml(options.publicOrigin)}/pricing">Back to the shop</a></p>`
      : "";
    return c.html(
      page(
        failed ? "Payment failed" : "Checkout",
        `${failure}${summary}<section aria-label="Payment">` +
          button(`${base}/pay`, "Pay", token, {}, true) +
          button(`${base}/fail`, "Fail payment", token) +
          button(`${base}/cancel`, "Cancel", token) +
          `</section>`,
      ),
    );
  });
  app.post("/checkout/:sessionId/pay", async (c) => c.redirect(await dev.pay(c.req.param("sessionId")), 303));
  app.post("/checkout/:sessionId/fail", async (c) => {
    const sessionId = c.req.param("sessionId");
    await dev.failPayment(sessionId);
    return c.redirect(`/dev/billing/checkout/${encodeURIComponent(sessionId)}?payment=failed`, 303);
  });
  app.post("/checkout/:sessionId/cancel", async (c) => c.redirect(await dev.cancelCheckout(c.req.param("sessionId")), 303));

  app.get("/portal/:portalSessionId", async (c) => {
    const portalSessionId = c.req.param("portalSessionId");
    const session = await dev.findPortalSession(portalSessionId);
    if (!session) return notFound(c, "billing portal session");
    const token = csrfTokenFor(c, secureCookies);
    const base = `/dev/billing/portal/${encodeURIComponent(portalSessionId)}`;
    const done = c.req.query("done");
    const notices: Record<string, string> = {
      switched: "Your plan was switched.",
      canceled: "Your subscription will end at the end of the current period; until then you keep your plan.",
      resumed: "Your subscription continues.",
    };
    const notice = done && notices[done] ? `<p class="note ok" role="status">${escapeHtml(notices[done])}</p>` : "";
    const confirmCancelOf = c.req.query("confirm_cancel");
    const switchSubscription = c.req.query("switch_subscription");
    const switchPrice = switchSubscription ? catalogue.findPrice(c.req.query("switch_price") ?? "") : undefined;
    const describeOther = (other: { plan: { name: string }; interval: string }) => `${other.plan.name} (${other.interval === "month" ? "monthly" : "yearly"})`;
    const sections = session.subscriptions.map((subscription) => {
      const price = catalogue.findPrice(subscription.price_id);
      const periodEnd = new Date(Number(subscription.current_period_end) * 1000).toISOString().slice(0, 10);
      const canceling = subscription.cancel_at_period_end === 1;
      const headingId = `subscription-${escapeHtml(subscription.id)}`;
      // Opened from 'Upgrade Plan' or 'Downgrade Plan': that one change, to confirm (Stripe's subscription_update_confirm).
      const deepLinkedSwitch =
        switchPrice && switchSubscription === subscription.id && switchPrice.priceId !== subscription.price_id
          ? `<div class="confirm" role="group" aria-labelledby="${headingId}-switch"><h3 id="${headingId}-switch">Switch to ${escapeHtml(describeOther(switchPrice))}?</h3>` +
            `<p>${escapeHtml(describePrice(switchPrice, switchPrice.priceId))}, from now on.</p>` +
            button(`${base}/switch`, `Confirm: switch to ${describeOther(switchPrice)}`, token, { subscription_id: subscription.id, price_id: switchPrice.priceId }, true) +
            `<p><a href="${base}">Not now</a></p></div>`
          : "";
      const otherSwitches = catalogue.prices
        .filter((other) => other.priceId !== subscription.price_id)
        .map((other) => button(`${base}/switch`, `Switch to ${describeOther(other)}`, token, { subscription_id: subscription.id, price_id: other.priceId }))
        .join("");
      const endSection = canceling
        ? `<p>This subscription ends on ${periodEnd}.</p>` + button(`${base}/resume`, "Keep my plan", token, { subscription_id: subscription.id })
        : confirmCancelOf === subscription.id
          ? `<div class="confirm" role="group" aria-labelledby="${headingId}-cancel"><h3 id="${headingId}-cancel">Cancel this subscription?</h3>` +
            `<p>You keep ${escapeHtml(price?.plan.name ?? "your plan")} until ${periodEnd}; nothing more is charged after that.</p>` +
            button(`${base}/cancel`, "Confirm cancellation", token, { subscription_id: subscription.id, confirm: "yes" }, true) +
            `<p><a href="${base}">Keep my plan</a></p></div>`
          : `<p><a href="${base}?confirm_cancel=${encodeURIComponent(subscription.id)}">Cancel subscription</a></p>`;
      return (
        `<section aria-labelledby="${headingId}"><h2 id="${headingId}">${escapeHtml(price?.plan.name ?? "Unknown plan")}</h2>` +
        deepLinkedSwitch +
        `<dl><dt>Price</dt><dd>${escapeHtml(describePrice(price, subscription.price_id))}</dd><dt>Status</dt><dd>${escapeHtml(canceling ? `${subscription.status}, ends ${periodEnd}` : subscription.status)}</dd><dt>Current period ends</dt><dd>${periodEnd}</dd></dl>` +
        `<details><summary>Change plan</summary>${otherSwitches}</details><h3>End subscription</h3>${endSection}` +
        `</section>`
      );
    });
    const body = sections.length > 0 ? sections.join("") : `<p>You have no active subscription.</p>`;
    return c.html(page("Billing", `${notice}${body}<p><a href="${escapeHtml(session.return_url)}">Return to Atelier</a></p>`));
  });
  app.post("/portal/:portalSessionId/switch", async (c) => {
    const portalSessionId = c.req.param("portalSessionId");
    // A body that is not a form names no subscription: the provider answers that, not a 500.
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    await dev.switchPrice(portalSessionId, String(form.subscription_id ?? ""), String(form.price_id ?? ""));
    return c.redirect(`/dev/billing/portal/${encodeURIComponent(portalSessionId)}?done=switched`, 303);
  });
  app.post("/portal/:portalSessionId/cancel", async (c) => {
    const portalSessionId = c.req.param("portalSessionId");
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const base = `/dev/billing/portal/${encodeURIComponent(portalSessionId)}`;
    // Cancelling asks first, as Stripe's portal does.
    if (form.confirm !== "yes") return c.redirect(`${base}?confirm_cancel=${encodeURIComponent(String(form.subscription_id ?? ""))}`, 303);
    await dev.cancelSubscription(portalSessionId, String(form.subscription_id ?? ""));
    return c.redirect(`${base}?done=canceled`, 303);
  });
  app.post("/portal/:portalSessionId/resume", async (c) => {
    const portalSessionId = c.req.param("portalSessionId");
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    await dev.resumeSubscription(portalSessionId, String(form.subscription_id ?? ""));
    return c.redirect(`/dev/billing/portal/${encodeURIComponent(portalSessionId)}?done=resumed`, 303);
  });
  return app;
}
