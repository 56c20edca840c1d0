import { createHmac, randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Clock } from "../clock.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import { lockForTheRestOfTransaction } from "../database/transaction-lock.ts";
import { HttpError } from "../http/http-errors.ts";
import type { DatabaseSchema, DevBillingSubscriptionTable } from "../database/schema.ts";
import type { BillingProvider } from "./billing-provider.ts";
import type { PlanCatalogue } from "./plans.ts";
import { developmentWebhookSecret, signWebhookPayload, verifyStripeSignature } from "./webhook-signature.ts";

/** Sends a signed delivery to our own `/stripe/webhook` and returns its status. */
export type WebhookDelivery = (payload: string, signatureHeader: string) => Promise<number>;

export type DevProviderOptions = {
  database: AtelierDatabase;
  catalogue: PlanCatalogue;
  publicOrigin: string;
  clock: Clock;
  deliverWebhook: WebhookDelivery;
};

function newId(prefix: string): string {
  return `${prefix}_dev_${randomBytes(18).toString("base64url")}`;
}

function addInterval(date: Date, interval: "month" | "year"): number {
  const end = new Date(date);
  if (interval === "month") end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  return Math.floor(end.getTime() / 1000);
}

/** A development checkout or portal step that cannot be done (answered 409 with a page). */
export class DevBillingError extends HttpError {
  constructor(message: string) {
    super(409, message);
    this.name = "DevBillingError";
  }
}

/** No id holds U+0000, and PostgreSQL refuses it in a query (a 500): such an id names nothing. */
function isPossibleId(id: string): boolean {
  return !id.includes("\u0000");
}

/**
 * The development provider: plays Stripe's part with tables of its own and local pages
 * (`dev-billing-pages.ts`), and signs its webhooks like Stripe with a fixed development secret.
 *
 * @example
 * const dev = createDevProvider({ database, catalogue, publicOrigin, clock, deliverWebhook });
 */
export function createDevProvider(options: DevProviderOptions) {
  const db: Kysely<DatabaseSchema> = options.database;
  const { clock, catalogue } = options;

  async function sendEvent(type: string, object: Record<string, unknown>): Promise<void> {
    const payload = JSON.stringify({
      id: newId("evt"),
      object: "event",
      type,
      created: Math.floor(clock().getTime() / 1000),
      livemode: false,
      data: { object },
    });
    const status = await options.deliverWebhook(payload, signWebhookPayload(payload, developmentWebhookSecret, clock));
    if (status >= 300) {
      throw new DevBillingError(`Our webhook endpoint answered ${status} to ${type}.`);
    }
  }

  function subscriptionObject(row: { id: string; customer_id: string; price_id: string; status: string; current_period_end: number; cancel_at_period_end: number }) {
    return {
      id: row.id,
      object: "subscription",
      customer: row.customer_id,
      status: row.status,
      cancel_at_period_end: row.cancel_at_period_end === 1,
      items: { object: "list", data: [{ object: "subscription_item", price: { id: row.price_id }, current_period_end: Number(row.current_period_end) }] },
    };
  }

  async function liveSubscriptionOf(customerId: string, executor: Kysely<DatabaseSchema> | Transaction<DatabaseSchema> = db) {
    return executor.selectFrom("dev_billing_subscription").selectAll().where("customer_id", "=", customerId).where("status", "in", ["active", "trialing", "past_due"]).orderBy("created_at", "desc").executeTakeFirst();
  }

  const sessionIdKey = randomBytes(32);
  const provider: BillingProvider = {
    name: "dev",
    async createCustomer({ userId, email }) {
      const existing = await db.selectFrom("dev_billing_customer").select("id").where("user_id", "=", userId).executeTakeFirst();
      if (existing) return existing.id;
      const id = newId("cus");
      await db.insertInto("dev_billing_customer").values({ id, user_id: userId, email, created_at: clock().toISOString() }).execute();
      return id;
    },
    async createCheckoutSession({ customerId, priceId, successUrl, cancelUrl, idempotencyKey }) {
      // As Stripe does, the same idempotency key answers the session it made first: a double click gets one checkout,
      // where two would each expire the other (decision 0078) and leave none to pay.
      // Keyed, since the key holds a user id that public decks show: nobody else can name this session.
      const id = `cs_dev_${createHmac("sha256", sessionIdKey).update(idempotencyKey).digest("base64url").slice(0, 24)}`;
      await db
        .insertInto("dev_billing_checkout_session")
        .values({ id, customer_id: customerId, price_id: priceId, success_url: successUrl, cancel_url: cancelUrl, status: "open", created_at: clock().toISOString() })
        .onConflict((conflict) => conflict.column("id").doNothing())
        .execute();
      return { id, url: `${options.publicOrigin}/dev/billing/checkout/${id}` };
    },
    async expireOtherOpenCheckoutSessions({ customerId, keepSessionId }) {
      await db.updateTable("dev_billing_checkout_session").set({ status: "expired" }).where("customer_id", "=", customerId).where("status", "=", "open").where("id", "<>", keepSessionId).execute();
    },
    async createPortalSession({ customerId, returnUrl, switchTo }) {
      const id = newId("bps");
      await db.insertInto("dev_billing_portal_session").values({ id, customer_id: customerId, return_url: returnUrl, created_at: clock().toISOString() }).execute();
      // The deep link to one plan change, as Stripe's `subscription_update_confirm` flow opens on its confirmation.
      const confirmation = switchTo ? `?${new URLSearchParams({ switch_subscription: switchTo.subscriptionId, switch_price: switchTo.priceId })}` : "";
      return { url: `${options.publicOrigin}/dev/billing/portal/${id}${confirmation}` };
    },
    async cancelSubscriptionNow({ subscriptionId }) {
      const row = isPossibleId(subscriptionId) ? await db.selectFrom("dev_billing_subscription").selectAll().where("id", "=", subscriptionId).executeTakeFirst() : undefined;
      if (!row || row.status === "canceled") return;
      const canceled = { ...row, status: "canceled", updated_at: clock().toISOString() };
      await db.updateTable("dev_billing_subscription").set({ status: "canceled", updated_at: canceled.updated_at }).where("id", "=", row.id).execute();
      await sendEvent("customer.subscription.deleted", subscriptionObject(canceled));
    },
    async listSubscriptions(customerId) {
      const rows = await db.selectFrom("dev_billing_subscription").selectAll().where("customer_id", "=", customerId).execute();
      return rows.map((row) => ({
        id: row.id,
        customerId: row.customer_id,
        // A cancellation at the period's end takes effect once the period is over, as Stripe ends it then.
        status: row.cancel_at_period_end === 1 && Number(row.current_period_end) * 1000 <= clock().getTime() ? "canceled" : row.status,
        priceId: row.price_id,
        itemId: `si_dev_${row.id}`,
        currentPeriodEnd: Number(row.current_period_end),
        cancelAtPeriodEnd: row.cancel_at_period_end === 1,
      }));
    },
    verifyWebhook(payload, signatureHeader) {
      return verifyStripeSignature(payload, signatureHeader, developmentWebhookSecret, clock);
    },
  };

  return {
    provider,
    async findCheckoutSession(id: string) {
      return findCheckoutSessionRow(id);
    },
    async findPortalSession(id: string) {
      if (!isPossibleId(id)) return undefined;
      const session = await db.selectFrom("dev_billing_portal_session").selectAll().where("id", "=", id).executeTakeFirst();
      if (!session) return undefined;
      const subscriptions = await db
        .selectFrom("dev_billing_subscription")
        .selectAll()
        .where("customer_id", "=", session.customer_id)
        .where("status", "not in", ["canceled", "incomplete_expired"])
        .orderBy("created_at", "desc")
        .execute();
      return { ...session, subscriptions };
    },
    /** "Pay": the subscription becomes (or stays, with the new price) active for one period. */
    async pay(sessionId: string): Promise<string> {
      const session = await findCheckoutSessionRow(sessionId);
      if (!session || session.status !== "open") throw new DevBillingError("This checkout session is no longer open.");
      const price = catalogue.findPrice(session.price_id);
      if (!price) throw new DevBillingError("This checkout session's price no longer exists.");
      const now = clock();
      const periodEnd = addInterval(now, price.interval);
      // The session is claimed and the customer's subscription written in one transaction, one customer at a time: the
      // same checkout paid from two tabs at once makes one subscription, and the other click is told it is closed.
      const paid = await db.transaction().execute(async (transaction) => {
        await lockForTheRestOfTransaction(transaction, `dev-billing-customer:${session.customer_id}`);
        const claim = await transaction.updateTable("dev_billing_checkout_session").set({ status: "complete" }).where("id", "=", sessionId).where("status", "=", "open").executeTakeFirst();
        if (Number(claim.numUpdatedRows) === 0) return null;
        const existing = await liveSubscriptionOf(session.customer_id, transaction);
        if (existing) {
          await transaction.updateTable("dev_billing_subscription").set({ price_id: session.price_id, status: "active", current_period_end: periodEnd, cancel_at_period_end: 0, updated_at: now.toISOString() }).where("id", "=", existing.id).execute();
          return { subscription: { ...existing, price_id: session.price_id, status: "active", current_period_end: periodEnd, cancel_at_period_end: 0 }, eventType: "customer.subscription.updated" };
        }
        const subscription: DevBillingSubscriptionTable = { id: newId("sub"), customer_id: session.customer_id, price_id: session.price_id, status: "active", current_period_end: periodEnd, cancel_at_period_end: 0, created_at: now.toISOString(), updated_at: now.toISOString() };
        await transaction.insertInto("dev_billing_subscription").values(subscription).execute();
        return { subscription, eventType: "customer.subscription.created" };
      });
      if (paid === null) throw new DevBillingError("This checkout session is no longer open.");
      const { subscription, eventType } = paid;
      await sendEvent("checkout.session.completed", { id: sessionId, object: "checkout.session", customer: session.customer_id, subscription: subscription.id, mode: "subscription", payment_status: "paid", status: "complete" });
      await sendEvent(eventType, subscriptionObject(subscription));
      return session.success_url.replace("{CHECKOUT_SESSION_ID}", sessionId);
    },
    /** "Fail payment": no subscription is created; the failure is announced like a declined first invoice. */
    async failPayment(sessionId: string): Promise<void> {
      const session = await findCheckoutSessionRow(sessionId);
      if (!session || session.status !== "open") throw new DevBillingError("This checkout session is no longer open.");
      await sendEvent("invoice.payment_failed", { id: newId("in"), object: "invoice", customer: session.customer_id, status: "open", attempted: true, paid: false });
    },
    /** "Back": the session stays open, as Stripe's does, so that a return to the same plan can still pay it. */
    async cancelCheckout(sessionId: string): Promise<string> {
      const session = await findCheckoutSessionRow(sessionId);
      if (!session) throw new DevBillingError("This checkout session does not exist.");
      return session.cancel_url;
    },
    /** "Switch to …": the price changes at once and a new period starts (no proration in development). */
    async switchPrice(portalSessionId: string, subscriptionId: string, priceId: string): Promise<void> {
      const subscription = await subscriptionOfPortal(portalSessionId, subscriptionId);
      const price = catalogue.findPrice(priceId);
      if (!price) throw new DevBillingError("This plan does not exist.");
      const now = clock();
      const updated = { ...subscription, price_id: priceId, status: "active", current_period_end: addInterval(now, price.interval), cancel_at_period_end: 0, updated_at: now.toISOString() };
      await db.updateTable("dev_billing_subscription").set(updated).where("id", "=", subscription.id).execute();
      await sendEvent("customer.subscription.updated", subscriptionObject(updated));
    },
    /** "Cancel subscription", confirmed: as Stripe's portal does by default, the plan runs to the end of its period. */
    async cancelSubscription(portalSessionId: string, subscriptionId: string): Promise<void> {
      const subscription = await subscriptionOfPortal(portalSessionId, subscriptionId);
      const now = clock();
      const canceling = { ...subscription, cancel_at_period_end: 1, updated_at: now.toISOString() };
      await db.updateTable("dev_billing_subscription").set(canceling).where("id", "=", subscription.id).execute();
      await sendEvent("customer.subscription.updated", subscriptionObject(canceling));
    },
    /** "Keep my plan": a cancellation at the period's end is taken back. */
    async resumeSubscription(portalSessionId: string, subscriptionId: string): Promise<void> {
      const subscription = await subscriptionOfPortal(portalSessionId, subscriptionId);
      const resumed = { ...subscription, cancel_at_period_end: 0, updated_at: clock().toISOString() };
      await db.updateTable("dev_billing_subscription").set(resumed).where("id", "=", subscription.id).execute();
      await sendEvent("customer.subscription.updated", subscriptionObject(resumed));
    },
  };

  async function findCheckoutSessionRow(id: string) {
    if (!isPossibleId(id)) return undefined;
    return db.selectFrom("dev_billing_checkout_session").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async function subscriptionOfPortal(portalSessionId: string, subscriptionId: string) {
    if (!isPossibleId(portalSessionId) || !isPossibleId(subscriptionId)) throw new DevBillingError("This subscription does not exist or has ended.");
    const session = await db.selectFrom("dev_billing_portal_session").selectAll().where("id", "=", portalSessionId).executeTakeFirst();
    if (!session) throw new DevBillingError("This portal session does not exist.");
    const subscription = await db.selectFrom("dev_billing_subscription").selectAll().where("id", "=", subscriptionId).where("customer_id", "=", session.customer_id).executeTakeFirst();
    if (!subscription || subscription.status === "canceled") throw new DevBillingError("This subscription does not exist or has ended.");
    return subscription;
  }
}

export type DevProvider = ReturnType<typeof createDevProvider>;
