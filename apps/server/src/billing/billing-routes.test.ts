import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { testOrigin } from "../identity/testing/identity-test-client.ts";
import { createStudyTestClient, type StudyTestClient } from "../study/testing/study-test-client.ts";
import type { BillingProvider } from "./billing-provider.ts";
import { devBillingThemeScript } from "./dev-billing-pages.ts";
import { developmentPriceId } from "./plans.ts";
import { createBillingTestServer, form, pathOf, startCheckout, subscribe, withoutRelayHeadersOnDevelopmentPages } from "./testing/billing-test-helpers.ts";
import { developmentWebhookSecret, verifyStripeSignature } from "./webhook-signature.ts";

const stripeHelpers = new Stripe("sk_test_signing_only", { telemetry: false });
let testDatabase: TestDatabase;
let now: Date;
const clock = () => now;

function createBillingTestApp(options: { billingProvider?: BillingProvider } = {}) {
  return createBillingTestServer(testDatabase, clock, options);
}

let app: ReturnType<typeof createBillingTestApp>;

async function signedIn(email: string): Promise<StudyTestClient & { userId: string }> {
  const client = createStudyTestClient(withoutRelayHeadersOnDevelopmentPages(app));
  const userId = await client.signUp(email);
  return Object.assign(client, { userId });
}

async function status(client: StudyTestClient) {
  const response = await client.get("/user/subscription-status");
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function openPortal(client: StudyTestClient): Promise<string> {
  const response = await client.postForm("/user/create-portal-session", form({}));
  expect(response.status, response.text).toBe(303);
  return response.headers.get("location") ?? "";
}

async function countRows(table: "billing_webhook_delivery" | "billing_subscription"): Promise<number> {
  const row = await testDatabase.database.selectFrom(table).select((expression) => expression.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

async function storedSubscriptions() {
  const rows = await testDatabase.database.selectFrom("billing_subscription").selectAll().orderBy("subscription_id").execute();
  return rows.map(({ synced_at: _syncedAt, ...row }) => ({ ...row, current_period_end: Number(row.current_period_end), amount_in_cents: Number(row.amount_in_cents), cancel_at_period_end: Number(row.cancel_at_period_end) }));
}

function signedDelivery(event: object, options: { timestamp?: number; tamper?: boolean } = {}) {
  const payload = JSON.stringify(event);
  const header = stripeHelpers.webhooks.generateTestHeaderString({ payload, secret: developmentWebhookSecret, timestamp: options.timestamp ?? Math.floor(now.getTime() / 1000) });
  const body = options.tamper ? payload.replace("customer.subscription", "customer.subscriptiom") : payload;
  return app.request("/stripe/webhook", { method: "POST", body, headers: { "Content-Type": "application/json", "Stripe-Signature": header } });
}

function subscriptionEvent(id: string, type: string, customer: string) {
  return { id, object: "event", type, created: Math.floor(now.getTime() / 1000), data: { object: { id: "sub_whatever", object: "subscription", customer, status: "active" } } };
}

describe.each(testDatabaseEngines)("given billing with the development provider on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    now = new Date("2026-03-02T09:00:00.000Z");
    app = createBillingTestApp();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await testDatabase.destroy();
  });

  describe("pricing", () => {
    it("should list every plan once per interval, in CHF, with exactly one default plan, to anonymous visitors", async () => {
      const response = await app.request("/user/pricing");
      expect(response.status).toBe(200);
      const { products } = (await response.json()) as { products: { name: string; is_default: boolean; stripe_id: string; features: string[]; price: { amount: number; amount_in_cents: number; interval: string; product_id: string } }[] };
      expect(products).toHaveLength(6);
      expect(products.map((product) => `${product.name}/${product.price.interval}`)).toEqual(["Basic/month", "Plus/month", "Studio/month", "Basic/year", "Plus/year", "Studio/year"]);
      expect(products[1]).toEqual({
        name: "Plus",
        description: expect.any(String),
        features: expect.arrayContaining(["Export any shared deck as CSV or Anki files"]),
        is_default: true,
        stripe_id: "price_dev_plus_month",
        price: { amount: 9, amount_in_cents: 900, interval: "month", product_id: "plus" },
      });
      expect(new Set(products.filter((product) => product.is_default).map((product) => product.name))).toEqual(new Set(["Plus"]));
      for (const product of products) expect(product.price.amount_in_cents).toBe(product.price.amount * 100);
    });
  });

  describe("access", () => {
    it("should answer 401 with a message to signed-out status, checkout and portal calls", async () => {
      const visitor = createStudyTestClient(app);
      for (const response of [await visitor.get("/user/subscription-status"), await visitor.post("/user/create-checkout-session", { priceId: "price_dev_plus_month" }), await visitor.postForm("/user/create-portal-session", form({}))]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ message: expect.any(String) });
      }
    });

    it("should refuse checkout and portal calls without the CSRF token with 403", async () => {
      const user = await signedIn("painter-fan@example.ch");
      expect((await user.post("/user/create-checkout-session", { priceId: "price_dev_plus_month" }, { withoutCsrf: true })).status).toBe(403);
      const portal = await app.request("/user/create-portal-session", {
        method: "POST",
        headers: { Origin: testOrigin, Cookie: [...user.cookies].map(([name, value]) => `${name}=${value}`).join("; "), "Content-Type": "application/x-www-form-urlencoded" },
        body: "",
      });
      expect(portal.status).toBe(403);
    });

    it("should accept the session token header for the status", async () => {
      const response = await app.request("/_allauth/app/v1/auth/signup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "app@example.ch", password: "correct horse battery" }) });
      const token = ((await response.json()) as { meta: { session_token: string } }).meta.session_token;
      const statusResponse = await app.request("/user/subscription-status", { headers: { "X-Session-Token": token } });
      expect(statusResponse.status).toBe(200);
      expect(await statusResponse.json()).toMatchObject({ has_subscription: false, plan: null, is_active: false, expires_at: null, subscriptions: [] });
    });

    it("should refuse an unknown price with 400 and a message", async () => {
      const user = await signedIn("painter-fan@example.ch");
      const response = await user.post("/user/create-checkout-session", { priceId: "price_nonexistent" });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: expect.any(String) });
    });

    it("should send a user without a customer from the portal call to the pricing page", async () => {
      const user = await signedIn("painter-fan@example.ch");
      expect(await openPortal(user)).toBe(`${testOrigin}/pricing`);
    });
  });

  describe("the development pages' theme script", () => {
    /** The theme the script sets on a page whose storage holds `stored` and whose system prefers dark or not. */
    function themeSetBy(stored: string | null | "throws", prefersDark: boolean): string | undefined {
      const attributes: Record<string, string> = {};
      const localStorage = {
        getItem: () => {
          if (stored === "throws") throw new Error("SecurityError");
          return stored;
        },
      };
      const matchMedia = (query: string) => ({ matches: query === "(prefers-color-scheme: dark)" && prefersDark });
      const document = { documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value), style: {} } };
      new Function("localStorage", "matchMedia", "document", devBillingThemeScript)(localStorage, matchMedia, document);
      return attributes["data-theme"];
    }

    it("should follow the theme chosen on the site, else the system's preference, even when storage is blocked", () => {
      expect(themeSetBy("dark", false)).toBe("dark");
      expect(themeSetBy("light", true)).toBe("light");
      expect(themeSetBy(null, true)).toBe("dark");
      expect(themeSetBy("purple", false)).toBe("light");
      expect(themeSetBy("throws", true)).toBe("dark");
    });
  });

  describe("the development checkout and portal", () => {
    it("should make the plan active until the end of the period after Pay, through the signed webhook", async () => {
      const user = await signedIn("painter-fan@example.ch");
      expect(await status(user)).toMatchObject({ has_subscription: false, plan: null, is_active: false, expires_at: null, subscriptions: [] });
      const checkoutUrl = await startCheckout(user, developmentPriceId("plus", "month"));
      expect(checkoutUrl).toMatch(new RegExp(`^${testOrigin}/dev/billing/checkout/cs_dev_`));
      const page = await user.get(pathOf(checkoutUrl));
      expect(page.text).toContain("Plus (monthly), CHF 9.00 per month");
      expect(page.text).toContain('<script src="/dev/billing/theme.js"></script>');
      const themeScript = await user.get("/dev/billing/theme.js");
      expect(themeScript.status).toBe(200);
      expect(themeScript.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(themeScript.text).toContain('localStorage.getItem("theme")');
      for (const label of [">Pay<", ">Fail payment<", ">Cancel<", 'name="csrfmiddlewaretoken"']) expect(page.text).toContain(label);

      const sessionId = checkoutUrl.split("/").at(-1);
      const paid = await user.postForm(`${pathOf(checkoutUrl)}/pay`, form({}));
      expect(paid.status).toBe(303);
      expect(paid.headers.get("location")).toBe(`${testOrigin}/checkout-success?success=true&session_id=${sessionId}`);

      const periodEnd = Date.parse("2026-04-02T09:00:00.000Z") / 1000;
      expect(await status(user)).toEqual({
        has_subscription: true,
        plan: "Plus",
        is_active: true,
        expires_at: periodEnd,
        cancel_at_period_end: false,
        subscriptions: [{ subscription_id: expect.stringMatching(/^sub_dev_/), plan: "Plus", is_active: true, expires_at: periodEnd, cancel_at_period_end: false, product_id: "plus", amount_in_cents: 900 }],
        entitlements: { privateDecks: 50, sharedDeckExports: true },
      });
      const deliveries = await testDatabase.database.selectFrom("billing_webhook_delivery").select(["event_type", "outcome"]).orderBy("received_at").execute();
      expect(deliveries.map((delivery) => delivery.event_type).sort()).toEqual(["checkout.session.completed", "customer.subscription.created"]);
      expect(deliveries.every((delivery) => delivery.outcome === "synced")).toBe(true);
    });

    it("should switch the plan and then cancel it in the portal, with the status following each step", async () => {
      const user = await signedIn("painter-fan@example.ch");
      await subscribe(user, developmentPriceId("basic", "month"));
      const portalUrl = await openPortal(user);
      expect(portalUrl).toMatch(new RegExp(`^${testOrigin}/dev/billing/portal/bps_dev_`));
      const page = await user.get(pathOf(portalUrl));
      expect(page.text).toContain(">Switch to Studio (yearly)<");
      expect(page.text).toContain(">Cancel subscription<");
      expect(page.text).toContain(`href="${testOrigin}/dashboard">Return to Atelier<`);
      const subscriptionId = (await status(user)).subscriptions[0].subscription_id as string;

      const switched = await user.postForm(`${pathOf(portalUrl)}/switch`, form({ subscription_id: subscriptionId, price_id: developmentPriceId("studio", "year") }));
      expect(switched.status).toBe(303);
      expect(switched.headers.get("location")).toBe(`${pathOf(portalUrl)}?done=switched`);
      expect(await status(user)).toMatchObject({ plan: "Studio", is_active: true, expires_at: Date.parse("2027-03-02T09:00:00.000Z") / 1000, subscriptions: [{ subscription_id: subscriptionId, product_id: "studio", amount_in_cents: 19_000 }] });
      expect((await user.get(`${pathOf(portalUrl)}?done=switched`)).text).toContain("Your plan was switched.");

      // Cancelling asks first, then ends the plan at the end of the period, as Stripe's portal does by default.
      const asked = await user.postForm(`${pathOf(portalUrl)}/cancel`, form({ subscription_id: subscriptionId }));
      expect(asked.headers.get("location")).toBe(`${pathOf(portalUrl)}?confirm_cancel=${subscriptionId}`);
      expect(await status(user)).toMatchObject({ plan: "Studio", is_active: true, cancel_at_period_end: false, subscriptions: [{ cancel_at_period_end: false }] });
      const confirmation = await user.get(asked.headers.get("location") ?? "");
      expect(confirmation.text).toContain("Cancel this subscription?");
      expect(confirmation.text).toContain("You keep Studio until 2027-03-02");
      const canceled = await user.postForm(`${pathOf(portalUrl)}/cancel`, form({ subscription_id: subscriptionId, confirm: "yes" }));
      expect(canceled.headers.get("location")).toBe(`${pathOf(portalUrl)}?done=canceled`);
      expect(await status(user)).toMatchObject({ plan: "Studio", is_active: true, expires_at: Date.parse("2027-03-02T09:00:00.000Z") / 1000, cancel_at_period_end: true, subscriptions: [{ cancel_at_period_end: true }] });
      expect((await user.get(pathOf(portalUrl))).text).toContain("This subscription ends on 2027-03-02.");

      now = new Date("2027-03-02T09:00:01.000Z");
      await user.signIn("painter-fan@example.ch");
      expect(await status(user)).toMatchObject({ has_subscription: false, plan: null, is_active: false, entitlements: { privateDecks: 1 } });
    });

    it("should open the portal on the confirmation of the card's plan change, and switch on confirming", async () => {
      const user = await signedIn("painter-fan@example.ch");
      await subscribe(user, developmentPriceId("plus", "month"));
      const subscriptionId = (await status(user)).subscriptions[0].subscription_id as string;
      const portal = await user.postForm("/user/create-portal-session", form({ price_id: developmentPriceId("plus", "year") }));
      const portalUrl = portal.headers.get("location") ?? "";
      expect(portalUrl).toContain(`switch_subscription=${subscriptionId}`);
      const page = await user.get(pathOf(portalUrl));
      expect(page.text).toContain("Switch to Plus (yearly)?");
      const confirmed = await user.postForm(`${pathOf(portalUrl).split("?")[0]}/switch`, form({ subscription_id: subscriptionId, price_id: developmentPriceId("plus", "year") }));
      expect(confirmed.status).toBe(303);
      expect(await status(user)).toMatchObject({ plan: "Plus", is_active: true, subscriptions: [{ amount_in_cents: expect.any(Number) }] });

      // An unknown price, or the one already paid, opens the portal's start page.
      for (const priceId of ["price_unknown", developmentPriceId("plus", "year")]) {
        const plain = await user.postForm("/user/create-portal-session", form({ price_id: priceId }));
        expect(plain.headers.get("location")).not.toContain("switch_subscription");
      }
    });

    it("should leave no active plan after a failed payment and send Cancel back to the cancel URL", async () => {
      const user = await signedIn("painter-fan@example.ch");
      const checkoutUrl = await startCheckout(user, developmentPriceId("plus", "year"));
      const failed = await user.postForm(`${pathOf(checkoutUrl)}/fail`, form({}));
      expect(failed.status).toBe(303);
      const failurePage = await user.get(failed.headers.get("location") ?? "");
      expect(failurePage.text).toContain("Payment failed");
      expect(failurePage.text).toContain(`href="${testOrigin}/pricing">Back to the shop<`);
      expect(await status(user)).toMatchObject({ has_subscription: false, is_active: false, subscriptions: [] });

      const canceled = await user.postForm(`${pathOf(checkoutUrl)}/cancel`, form({}));
      expect(canceled.headers.get("location")).toBe(`${testOrigin}/checkout-success?canceled=true`);
      expect(await status(user)).toMatchObject({ has_subscription: false });
    });

    it("should send a subscriber who chooses another plan to the portal instead of a second checkout", async () => {
      const user = await signedIn("painter-fan@example.ch");
      await subscribe(user, developmentPriceId("basic", "month"));
      expect(await startCheckout(user, developmentPriceId("plus", "month"))).toMatch(/\/dev\/billing\/portal\//);
    });

    // Decision 0078: the Plus checkout left open in one tab, the Basic one paid in another, then Plus paid too.
    it("should let only the newest of two checkouts started in two tabs be paid, so that one subscription is billed", async () => {
      const user = await signedIn("painter-fan@example.ch");
      const firstTab = await startCheckout(user, developmentPriceId("plus", "month"));
      const secondTab = await startCheckout(user, developmentPriceId("basic", "year"));
      expect(secondTab).not.toBe(firstTab);
      expect((await user.get(pathOf(firstTab))).text).toContain("This checkout session is expired.");
      const refused = await user.postForm(`${pathOf(firstTab)}/pay`, form({}));
      expect(refused.status).toBe(409);
      expect(refused.text).toContain("This checkout session is no longer open.");
      expect((await user.postForm(`${pathOf(secondTab)}/pay`, form({}))).status).toBe(303);
      expect(await status(user)).toMatchObject({ has_subscription: true, plan: "Basic", subscriptions: [expect.objectContaining({ plan: "Basic" })] });
      expect((await user.postForm(`${pathOf(firstTab)}/pay`, form({}))).status).toBe(409);
      expect((await status(user)).subscriptions).toHaveLength(1);
    });

    it("should leave at most one checkout open when two tabs start theirs at the same moment", async () => {
      const user = await signedIn("painter-fan@example.ch");
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const urls = await Promise.all([developmentPriceId("plus", "month"), developmentPriceId("studio", "year")].map((priceId) => startCheckout(user, priceId)));
        expect(urls).toHaveLength(2);
        const open = await testDatabase.database.selectFrom("dev_billing_checkout_session").select("id").where("status", "=", "open").execute();
        expect(open.length).toBeLessThanOrEqual(1);
      }
    });

    it("should give a double click one checkout that can be paid, as Stripe's idempotency key does", async () => {
      const user = await signedIn("painter-fan@example.ch");
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const urls = await Promise.all([0, 1].map(() => startCheckout(user, developmentPriceId("plus", "month"))));
        expect(urls[1]).toBe(urls[0]);
        expect((await user.get(pathOf(urls[0] ?? ""))).text).not.toContain("This checkout session is expired.");
      }
      expect((await user.postForm(`${pathOf((await startCheckout(user, developmentPriceId("plus", "month"))))}/pay`, form({}))).status).toBe(303);
      expect(await status(user)).toMatchObject({ has_subscription: true, plan: "Plus" });
    });

    it("should let a visitor who went back from the checkout return to the same plan and pay it", async () => {
      const user = await signedIn("painter-fan@example.ch");
      const checkout = await startCheckout(user, developmentPriceId("plus", "month"));
      expect((await user.postForm(`${pathOf(checkout)}/cancel`, form({}))).headers.get("location")).toBe(`${testOrigin}/checkout-success?canceled=true`);
      const again = await startCheckout(user, developmentPriceId("plus", "month"));
      expect(again).toBe(checkout);
      expect((await user.postForm(`${pathOf(again)}/pay`, form({}))).status).toBe(303);
      expect(await status(user)).toMatchObject({ has_subscription: true, plan: "Plus" });
    });

    it("should bill one subscription when the same checkout is paid from several tabs at once, and tell the others it is closed", async () => {
      const user = await signedIn("painter-fan@example.ch");
      const checkout = await startCheckout(user, developmentPriceId("plus", "month"));
      const answers = await Promise.all(Array.from({ length: 8 }, () => user.postForm(`${pathOf(checkout)}/pay`, form({}))));
      expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409, 409, 409, 409, 409, 409, 409]);
      const subscriptions = await testDatabase.database.selectFrom("dev_billing_subscription").select("id").execute();
      expect(subscriptions).toHaveLength(1);
      expect((await status(user)).subscriptions).toHaveLength(1);
    });

    it("should give a new customer one stored customer when its first checkout is asked for three times at once", async () => {
      const user = await signedIn("painter-fan@example.ch");
      const urls = await Promise.all([1, 2, 3].map(() => startCheckout(user, developmentPriceId("plus", "month"))));

      expect(urls).toEqual([expect.stringMatching(/\/dev\/billing\/checkout\//), expect.stringMatching(/\/dev\/billing\/checkout\//), expect.stringMatching(/\/dev\/billing\/checkout\//)]);
      const customers = await testDatabase.database.selectFrom("billing_customer").select("customer_id").where("user_id", "=", user.userId).execute();
      expect(customers).toHaveLength(1);
      const sessionCustomers = await testDatabase.database.selectFrom("dev_billing_checkout_session").select("customer_id").distinct().execute();
      expect(sessionCustomers).toEqual(customers);
    });
  });

  describe("the webhook", () => {
    async function paidCustomer() {
      const user = await signedIn("painter-fan@example.ch");
      await subscribe(user, developmentPriceId("plus", "month"));
      const customer = await testDatabase.database.selectFrom("billing_customer").select("customer_id").where("user_id", "=", user.userId).executeTakeFirstOrThrow();
      return { user, customerId: customer.customer_id };
    }

    it("should refuse tampered and stale signatures with 400 and store nothing", async () => {
      const user = await signedIn("painter-fan@example.ch");
      await startCheckout(user, developmentPriceId("plus", "month"));
      const customer = await testDatabase.database.selectFrom("billing_customer").select("customer_id").executeTakeFirstOrThrow();
      const event = subscriptionEvent("evt_1", "customer.subscription.updated", customer.customer_id);
      expect((await signedDelivery(event, { tamper: true })).status).toBe(400);
      expect((await signedDelivery(event, { timestamp: Math.floor(now.getTime() / 1000) - 301 })).status).toBe(400);
      expect((await app.request("/stripe/webhook", { method: "POST", body: JSON.stringify(event), headers: { "Content-Type": "application/json" } })).status).toBe(400);
      expect(await countRows("billing_webhook_delivery")).toBe(0);
      expect(await countRows("billing_subscription")).toBe(0);
    });

    it("should refuse a correctly signed body that is not an event with 400 and store nothing", async () => {
      for (const body of [{}, { id: "evt_1", type: "customer.subscription.updated" }, { id: 1, type: "customer.subscription.updated", data: { object: {} } }]) {
        expect((await signedDelivery(body)).status).toBe(400);
      }
      expect(await countRows("billing_webhook_delivery")).toBe(0);
    });

    it("should refuse a correctly signed event whose event id, type or customer id holds U+0000 with 400 and a message, and store nothing", async () => {
      const malformedEvents = [
        subscriptionEvent("evt_\u0000nul", "customer.subscription.updated", "cus_plain"),
        subscriptionEvent("evt_plain", "customer.subscription.\u0000updated", "cus_plain"),
        subscriptionEvent("evt_plain", "customer.subscription.updated", "cus_\u0000nul"),
      ];
      for (const event of malformedEvents) {
        const response = await signedDelivery(event);
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ message: expect.stringMatching(/U\+0000/) });
      }
      expect(await countRows("billing_webhook_delivery")).toBe(0);
    });

    it("should end in the same state after the same event twice or updated before created", async () => {
      const { customerId } = await paidCustomer();
      const expected = await storedSubscriptions();
      expect(expected).toHaveLength(1);
      await testDatabase.database.deleteFrom("billing_subscription").execute();

      expect((await signedDelivery(subscriptionEvent("evt_updated", "customer.subscription.updated", customerId))).status).toBe(200);
      expect((await signedDelivery(subscriptionEvent("evt_created", "customer.subscription.created", customerId))).status).toBe(200);
      expect(await storedSubscriptions()).toEqual(expected);
      expect((await signedDelivery(subscriptionEvent("evt_created", "customer.subscription.created", customerId))).status).toBe(200);
      expect(await storedSubscriptions()).toEqual(expected);
      const logged = await testDatabase.database.selectFrom("billing_webhook_delivery").select("event_id").where("event_id", "=", "evt_created").execute();
      expect(logged).toHaveLength(2);
    });

    it("should sync every delivery of events that arrive at once (a checkout's created, updated and paid events) without failing one", async () => {
      const { customerId } = await paidCustomer();
      const expected = await storedSubscriptions();
      await testDatabase.database.deleteFrom("billing_subscription").execute();
      await testDatabase.database.deleteFrom("billing_webhook_delivery").execute();

      const types = ["customer.subscription.created", "customer.subscription.updated", "checkout.session.completed", "invoice.paid", "invoice.payment_succeeded", "customer.subscription.updated"];
      const responses = await Promise.all(types.map((type, index) => signedDelivery(subscriptionEvent(`evt_at_once_${index}`, type, customerId))));

      expect(responses.map((response) => response.status)).toEqual(types.map(() => 200));
      expect(await storedSubscriptions()).toEqual(expected);
      const outcomes = await testDatabase.database.selectFrom("billing_webhook_delivery").select("outcome").execute();
      expect(outcomes.map((row) => row.outcome)).toEqual(types.map(() => "synced"));
    });

    it("should log and ignore events of other types and unknown customers", async () => {
      expect((await signedDelivery({ id: "evt_other", object: "event", type: "product.updated", data: { object: { id: "prod_1", object: "product" } } })).status).toBe(200);
      expect((await signedDelivery(subscriptionEvent("evt_stranger", "customer.subscription.updated", "cus_stranger"))).status).toBe(200);
      const outcomes = await testDatabase.database.selectFrom("billing_webhook_delivery").select(["event_id", "outcome"]).orderBy("event_id").execute();
      expect(outcomes).toEqual([
        { event_id: "evt_other", outcome: "ignored" },
        { event_id: "evt_stranger", outcome: "ignored" },
      ]);
    });

    it("should answer 500 when the sync fails, so that the provider retries", async () => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      const failingProvider: BillingProvider = {
        name: "dev",
        createCustomer: async () => "cus_failing",
        createCheckoutSession: async () => ({ id: "cs_unused", url: "unused" }),
      expireOtherOpenCheckoutSessions: async () => undefined,
        createPortalSession: async () => ({ url: "unused" }),
        cancelSubscriptionNow: async () => undefined,
        listSubscriptions: async () => {
          throw new Error("The provider is down.");
        },
        verifyWebhook: (payload, header) => verifyStripeSignature(payload, header, developmentWebhookSecret, clock),
      };
      app = createBillingTestApp({ billingProvider: failingProvider });
      const user = await signedIn("painter-fan@example.ch");
      await testDatabase.database.insertInto("billing_customer").values({ user_id: user.userId, provider: "dev", customer_id: "cus_failing", created_at: now.toISOString() }).execute();
      const response = await signedDelivery(subscriptionEvent("evt_fail", "customer.subscription.updated", "cus_failing"));
      expect(response.status).toBe(500);
      const delivery = await testDatabase.database.selectFrom("billing_webhook_delivery").select(["outcome", "error"]).executeTakeFirstOrThrow();
      expect(delivery).toEqual({ outcome: "failed", error: "The provider is down." });
    });
  });
});
