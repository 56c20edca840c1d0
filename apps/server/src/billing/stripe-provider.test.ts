import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openTestDatabase, type TestDatabase } from "../database/test-databases.ts";
import { createBillingTestServer } from "./testing/billing-test-helpers.ts";
import { testOrigin } from "../identity/testing/identity-test-client.ts";
import { createStudyTestClient } from "../study/testing/study-test-client.ts";

type RecordedRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; form: URLSearchParams };

const webhookSecret = "whsec_test_secret_for_the_fake_stripe";
const priceIds = { basic_month: "price_B_m", basic_year: "price_B_y", plus_month: "price_P_m", plus_year: "price_P_y", studio_month: "price_S_m", studio_year: "price_S_y" };
const periodEnd = Date.parse("2026-04-02T09:00:00.000Z") / 1000;
const stripeHelpers = new Stripe("sk_test_signing_only", { telemetry: false });

let requests: RecordedRequest[] = [];
let subscriptionStatus = "active";
let refuseCheckout = false;
/** The stand-in's checkout sessions, in the order created; `paidWhileExpired` is paid at the moment it is expired. */
let checkoutSessions: { id: string; customer: string; status: "open" | "complete" | "expired"; paidWhileExpired?: boolean; failsToExpire?: boolean }[] = [];

function checkoutSessionBody(session: (typeof checkoutSessions)[number]) {
  return { id: session.id, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${session.id}`, customer: session.customer, status: session.status };
}
let server: http.Server;
let port: number;

/** A loopback stand-in for api.stripe.com: records each call and answers canned Stripe JSON. */
function answer(request: RecordedRequest): { status: number; body: unknown } {
  if (request.method === "POST" && request.path === "/v1/customers") return { status: 200, body: { id: "cus_test_1", object: "customer", email: request.form.get("email") } };
  if (request.method === "POST" && request.path === "/v1/checkout/sessions") {
    if (refuseCheckout) return { status: 400, body: { error: { type: "invalid_request_error", code: "resource_missing", param: "line_items[0][price]", message: "No such price: 'price_P_m'" } } };
    const session = { id: `cs_test_${checkoutSessions.length + 1}`, customer: request.form.get("customer") ?? "", status: "open" as const };
    checkoutSessions.push(session);
    return { status: 200, body: checkoutSessionBody(session) };
  }
  if (request.method === "GET" && request.path.startsWith("/v1/checkout/sessions?")) {
    const query = new URL(`http://x${request.path}`).searchParams;
    const data = checkoutSessions.filter((session) => session.customer === query.get("customer") && session.status === query.get("status")).map(checkoutSessionBody);
    return { status: 200, body: { object: "list", has_more: false, url: "/v1/checkout/sessions", data } };
  }
  const checkoutSession = checkoutSessions.find((session) => request.path.startsWith(`/v1/checkout/sessions/${session.id}`));
  if (checkoutSession !== undefined && request.method === "GET") return { status: 200, body: checkoutSessionBody(checkoutSession) };
  if (checkoutSession !== undefined && request.method === "POST" && request.path.endsWith("/expire")) {
    if (checkoutSession.paidWhileExpired) checkoutSession.status = "complete";
    if (checkoutSession.status !== "open" || checkoutSession.failsToExpire) {
      return { status: 400, body: { error: { type: "invalid_request_error", message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${checkoutSession.status}".` } } };
    }
    checkoutSession.status = "expired";
    return { status: 200, body: checkoutSessionBody(checkoutSession) };
  }
  if (request.method === "POST" && request.path === "/v1/billing_portal/sessions") return { status: 200, body: { id: "bps_1", object: "billing_portal.session", url: "https://billing.stripe.com/p/session/test_1" } };
  if (request.method === "DELETE" && request.path === "/v1/subscriptions/sub_test_1") {
    subscriptionStatus = "canceled";
    return { status: 200, body: { id: "sub_test_1", object: "subscription", customer: "cus_test_1", status: "canceled", items: { object: "list", has_more: false, data: [] } } };
  }
  if (request.method === "GET" && request.path.startsWith("/v1/subscriptions?")) {
    return {
      status: 200,
      body: {
        object: "list",
        has_more: false,
        url: "/v1/subscriptions",
        data: [
          {
            id: "sub_test_1",
            object: "subscription",
            customer: "cus_test_1",
            status: subscriptionStatus,
            cancel_at_period_end: false,
            items: { object: "list", has_more: false, data: [{ id: "si_1", object: "subscription_item", current_period_end: periodEnd, price: { id: "price_P_m", object: "price" } }] },
          },
        ],
      },
    };
  }
  return { status: 404, body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such route ${request.method} ${request.path}` } } };
}

beforeAll(async () => {
  server = http.createServer((incoming, outgoing) => {
    let body = "";
    incoming.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    incoming.on("end", () => {
      const recorded = { method: incoming.method ?? "", path: incoming.url ?? "", headers: incoming.headers, form: new URLSearchParams(body) };
      requests.push(recorded);
      const { status, body: answerBody } = answer(recorded);
      outgoing.writeHead(status, { "Content-Type": "application/json", "Request-Id": "req_test" });
      outgoing.end(JSON.stringify(answerBody));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let testDatabase: TestDatabase;
let now: Date;

function createStripeTestApp() {
  // Stripe's settings make the configured provider the real SDK (every test below talks to the stand-in through it).
  return createBillingTestServer(testDatabase, () => now, {
    environment: {
      STRIPE_SECRET_KEY: "sk_test_fake_key",
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PRICE_IDS: JSON.stringify(priceIds),
      STRIPE_API_HOST: "127.0.0.1",
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: "http",
    },
  });
}

describe("given the Stripe provider with the real SDK against a local Stripe stand-in", () => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase("sqlite");
    now = new Date("2026-03-02T09:00:00.000Z");
    requests = [];
    subscriptionStatus = "active";
    refuseCheckout = false;
    checkoutSessions = [];
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await testDatabase.destroy();
  });

  it("should price the plans with the configured Stripe price ids", async () => {
    const app = createStripeTestApp();
    const body = (await (await app.request("/user/pricing")).json()) as { products: { stripe_id: string }[] };
    expect(body.products.map((product) => product.stripe_id)).toEqual(["price_B_m", "price_P_m", "price_S_m", "price_B_y", "price_P_y", "price_S_y"]);
  });

  it("should create the customer before the checkout, both with our idempotency keys, and keep {CHECKOUT_SESSION_ID} in the success URL", async () => {
    const app = createStripeTestApp();
    const user = createStudyTestClient(app);
    const userId = await user.signUp("collector@example.ch");
    const response = await user.post("/user/create-checkout-session", { priceId: "price_P_m" });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ url: "https://checkout.stripe.com/c/pay/cs_test_1" });

    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /v1/customers", "POST /v1/checkout/sessions", "GET /v1/checkout/sessions?customer=cus_test_1&status=open&limit=100"]);
    const [customerCall, checkoutCall] = requests as [RecordedRequest, RecordedRequest];
    expect(customerCall.headers.authorization).toBe("Bearer sk_test_fake_key");
    expect(customerCall.headers["idempotency-key"]).toBe(`atelier-customer:${userId}`);
    expect(customerCall.form.get("email")).toBe("collector@example.ch");
    expect(customerCall.form.get("metadata[userId]")).toBe(userId);
    expect(checkoutCall.headers["idempotency-key"]).toMatch(new RegExp(`^atelier-checkout:${userId}:price_P_m:\\d+$`));
    expect(checkoutCall.form.get("mode")).toBe("subscription");
    expect(checkoutCall.form.get("customer")).toBe("cus_test_1");
    expect(checkoutCall.form.get("line_items[0][price]")).toBe("price_P_m");
    expect(checkoutCall.form.get("success_url")).toBe(`${testOrigin}/checkout-success?success=true&session_id={CHECKOUT_SESSION_ID}`);
    expect(checkoutCall.form.get("cancel_url")).toBe(`${testOrigin}/checkout-success?canceled=true`);

    // A second checkout reuses the stored customer.
    await user.post("/user/create-checkout-session", { priceId: "price_P_y" });
    expect(requests.filter((request) => request.path === "/v1/customers")).toHaveLength(1);
  });

  // Decision 0078: two tabs, two plans, two checkouts; paying both would bill two subscriptions.
  it("should expire the customer's other open checkout sessions when a checkout starts, leaving a session paid meanwhile as it is", async () => {
    const app = createStripeTestApp();
    const user = createStudyTestClient(app);
    await user.signUp("collector@example.ch");
    expect((await user.post("/user/create-checkout-session", { priceId: "price_P_m" })).body).toEqual({ url: "https://checkout.stripe.com/c/pay/cs_test_1" });
    expect((await user.post("/user/create-checkout-session", { priceId: "price_B_y" })).body).toEqual({ url: "https://checkout.stripe.com/c/pay/cs_test_2" });
    expect(checkoutSessions.map((session) => `${session.id} ${session.status}`)).toEqual(["cs_test_1 expired", "cs_test_2 open"]);
    expect(requests.filter((request) => request.path.endsWith("/expire")).map((request) => request.path)).toEqual(["/v1/checkout/sessions/cs_test_1/expire"]);

    // Paid in its tab between the list and the expiry: Stripe refuses the expiry, and the new checkout still opens.
    (checkoutSessions[1] as (typeof checkoutSessions)[number]).paidWhileExpired = true;
    const third = await user.post("/user/create-checkout-session", { priceId: "price_S_m" });
    expect(third.status, third.text).toBe(200);
    expect(checkoutSessions.map((session) => `${session.id} ${session.status}`)).toEqual(["cs_test_1 expired", "cs_test_2 complete", "cs_test_3 open"]);

    // A session that stays open when Stripe refuses to expire it fails the checkout (502, as any refusal): two could be paid.
    (checkoutSessions[2] as (typeof checkoutSessions)[number]).failsToExpire = true;
    const refused = await user.post("/user/create-checkout-session", { priceId: "price_B_m" });
    expect(refused.status).toBe(502);
    expect(refused.body).not.toHaveProperty("url");
  });

  it("should sync the subscription from Stripe on a signed webhook and open the portal for the customer", async () => {
    const app = createStripeTestApp();
    const user = createStudyTestClient(app);
    await user.signUp("collector@example.ch");
    await user.post("/user/create-checkout-session", { priceId: "price_P_m" });

    const payload = JSON.stringify({ id: "evt_1", object: "event", type: "checkout.session.completed", data: { object: { id: "cs_test_1", object: "checkout.session", customer: "cus_test_1" } } });
    const sign = (timestamp: number) => stripeHelpers.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, timestamp });
    const deliver = (header: string, body = payload) => app.request("/stripe/webhook", { method: "POST", body, headers: { "Content-Type": "application/json", "Stripe-Signature": header } });
    const nowSeconds = Math.floor(now.getTime() / 1000);
    expect((await deliver(sign(nowSeconds - 600))).status).toBe(400);
    expect((await deliver(sign(nowSeconds), payload.replace("cus_test_1", "cus_test_2"))).status).toBe(400);
    expect(requests.some((request) => request.path.startsWith("/v1/subscriptions"))).toBe(false);

    expect((await deliver(sign(nowSeconds))).status).toBe(200);
    const listCall = requests.find((request) => request.path.startsWith("/v1/subscriptions"));
    expect(new URL(`http://x${listCall?.path}`).searchParams.get("status")).toBe("all");
    expect((await user.get("/user/subscription-status")).body).toMatchObject({
      has_subscription: true,
      plan: "Plus",
      is_active: true,
      expires_at: periodEnd,
      subscriptions: [{ subscription_id: "sub_test_1", plan: "Plus", is_active: true, expires_at: periodEnd, product_id: "plus", amount_in_cents: 900 }],
    });

    // 'Upgrade Plan' on the Plus yearly card: the portal opens on Stripe's confirmation of exactly that change.
    const upgradeForm = new FormData();
    upgradeForm.append("price_id", "price_P_y");
    expect((await user.postForm("/user/create-portal-session", upgradeForm)).status).toBe(303);
    const deepLinkCall = requests.filter((request) => request.path === "/v1/billing_portal/sessions").at(-1);
    expect(Object.fromEntries(deepLinkCall?.form ?? [])).toMatchObject({
      customer: "cus_test_1",
      "flow_data[type]": "subscription_update_confirm",
      "flow_data[subscription_update_confirm][subscription]": "sub_test_1",
      "flow_data[subscription_update_confirm][items][0][id]": "si_1",
      "flow_data[subscription_update_confirm][items][0][price]": "price_P_y",
      "flow_data[after_completion][type]": "redirect",
      "flow_data[after_completion][redirect][return_url]": `${testOrigin}/dashboard`,
    });
    requests = [];

    subscriptionStatus = "canceled";
    expect((await deliver(sign(nowSeconds))).status).toBe(200);
    expect((await user.get("/user/subscription-status")).body).toMatchObject({ has_subscription: false, plan: null, subscriptions: [] });

    const form = new FormData();
    const portal = await user.postForm("/user/create-portal-session", form);
    expect(portal.status).toBe(303);
    expect(portal.headers.get("location")).toBe("https://billing.stripe.com/p/session/test_1");
    const portalCall = requests.find((request) => request.path === "/v1/billing_portal/sessions");
    expect(portalCall?.form.get("customer")).toBe("cus_test_1");
    expect(portalCall?.form.get("return_url")).toBe(`${testOrigin}/dashboard`);
  });

  it("should cancel a live subscription at Stripe with our idempotency key when the account is deleted, and not a cancelled one", async () => {
    const app = createStripeTestApp();
    const user = createStudyTestClient(app);
    const userId = await user.signUp("leaving@example.ch");
    await testDatabase.database.insertInto("billing_customer").values({ user_id: userId, provider: "stripe", customer_id: "cus_test_1", created_at: now.toISOString() }).execute();
    expect((await user.post("/_allauth/browser/v1/auth/reauthenticate", { password: "correct horse battery" })).status).toBe(200);
    expect((await user.delete("/api/account/")).status).toBe(204);
    const cancel = requests.find((request) => request.method === "DELETE");
    expect(cancel?.path).toBe("/v1/subscriptions/sub_test_1");
    expect(cancel?.headers["idempotency-key"]).toBe("account-deletion:sub_test_1");

    requests = [];
    const again = createStudyTestClient(app);
    const againId = await again.signUp("leaving-too@example.ch");
    // The same Stripe customer, whose subscription Stripe now reports as canceled: nothing is cancelled twice.
    await testDatabase.database.updateTable("billing_customer").set({ user_id: againId }).where("customer_id", "=", "cus_test_1").execute();
    expect((await again.post("/_allauth/browser/v1/auth/reauthenticate", { password: "correct horse battery" })).status).toBe(200);
    expect((await again.delete("/api/account/")).status).toBe(204);
    expect(requests.map((request) => `${request.method} ${request.path.split("?")[0]}`)).toEqual(["GET /v1/subscriptions"]);
  });

  it("should answer 502 with a message when Stripe refuses a call", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const app = createStripeTestApp();
    const user = createStudyTestClient(app);
    await user.signUp("collector@example.ch");
    refuseCheckout = true;
    const response = await user.post("/user/create-checkout-session", { priceId: "price_P_m" });
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ message: "The payment provider could not be reached. Please try again in a moment." });
    expect(response.text).not.toContain("No such price");
  });
});
