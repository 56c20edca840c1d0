import { Hono, type MiddlewareHandler } from "hono";
import { HttpError, RequestValidationError } from "../http/http-errors.ts";
import { requireAuthenticatedUser } from "../identity/index.ts";
import { providerUnavailable, type BillingService } from "./billing-service.ts";
import { logger } from "../logging/logger.ts";

async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    logger.error({ err: error }, "A billing provider call failed:");
    throw providerUnavailable(error);
  }
}

/** Answers about the signed-in user (errors included) must not be kept by a shared cache. */
const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
};

/**
 * The billing API of spec §7 and the webhook (decision 0017); mounted at the root.
 *
 * @example
 * app.route("/", createBillingRoutes({ billing, publicOrigin }));
 */
export function createBillingRoutes(options: { billing: BillingService; publicOrigin: string }) {
  const { billing } = options;
  const app = new Hono();

  app.get("/user/pricing", (c) => c.json(billing.pricing()));

  app.get("/user/subscription-status", noStore, async (c) => {
    const user = await requireAuthenticatedUser(c);
    return c.json(await billing.subscriptionStatus(user.id));
  });

  app.post("/user/create-checkout-session", noStore, async (c) => {
    const user = await requireAuthenticatedUser(c);
    const body: unknown = await c.req.json().catch(() => null);
    const priceId = typeof body === "object" && body !== null ? (body as { priceId?: unknown }).priceId : undefined;
    if (typeof priceId !== "string" || priceId === "") {
      throw new RequestValidationError("Send the plan's price id as JSON: { \"priceId\": \"…\" }.");
    }
    const session = await callProvider(() => billing.createCheckoutSession(user, priceId));
    return c.json({ url: session.url });
  });

  // The portal's address is a capability: whoever has it manages the subscription.
  app.post("/user/create-portal-session", noStore, async (c) => {
    const user = await requireAuthenticatedUser(c);
    // The pricing card's plan, carried as a form field by /stripe-portal-session; anything else opens the start page.
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const targetPriceId = typeof form.price_id === "string" && form.price_id.length <= 200 ? form.price_id : undefined;
    const session = await callProvider(() => billing.createPortalSession(user, targetPriceId));
    return c.redirect(session?.url ?? `${options.publicOrigin}/pricing`, 303);
  });

  app.post("/stripe/webhook", async (c) => {
    const payload = await c.req.text();
    const result = await billing.handleWebhook(payload, c.req.header("stripe-signature"));
    return c.json(result.status === 200 ? { received: true, message: result.message } : { message: result.message }, result.status);
  });

  return app;
}
