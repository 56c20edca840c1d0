import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import type { Clock } from "../../clock.ts";
import { loadConfiguration } from "../../config.ts";
import { createServer } from "../../create-server.ts";
import type { TestDatabase } from "../../database/test-databases.ts";
import { testOrigin } from "../../identity/testing/identity-test-client.ts";
import type { StudyTestClient } from "../../study/testing/study-test-client.ts";
import type { BillingProvider } from "../billing-provider.ts";

/**
 * The whole server as the billing tests see it: the test origin behind a trusted proxy, sign-up without e-mail
 * verification, no web build; `environment` adds settings (Stripe's, for the Stripe tests).
 */
export function createBillingTestServer(
  testDatabase: TestDatabase,
  clock: Clock,
  options: { billingProvider?: BillingProvider; environment?: Record<string, string> } = {},
) {
  const configuration = loadConfiguration({
    NODE_ENV: "test",
    PUBLIC_ORIGIN: testOrigin,
    TRUST_PROXY: "true",
    ACCOUNT_EMAIL_VERIFICATION: "none",
    WEB_BUILD_DIR: path.join(os.tmpdir(), "atelier-no-web-build"),
    ...options.environment,
  });
  return createServer({ configuration, database: testDatabase.database, clock, billingProvider: options.billingProvider });
}

type RequestingApp = { request: (input: string | Request | URL, init?: RequestInit, ...rest: never[]) => Response | Promise<Response> };

/** The development pages answer only this machine with no proxy in between: the test browser reaches them directly. */
export function withoutRelayHeadersOnDevelopmentPages<App extends RequestingApp>(server: App): App {
  const direct: App = Object.create(server);
  direct.request = (input, init, ...rest) => {
    const path = typeof input === "string" ? input : input instanceof Request ? new URL(input.url).pathname : input.pathname;
    if (!path.startsWith("/dev/")) return server.request(input, init, ...rest);
    const headers = new Headers(init?.headers);
    headers.delete("X-Forwarded-For");
    return server.request(input, { ...init, headers }, ...rest);
  };
  return direct;
}

export function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export async function startCheckout(client: StudyTestClient, priceId: string): Promise<string> {
  const response = await client.post("/user/create-checkout-session", { priceId });
  expect(response.status, response.text).toBe(200);
  return response.body.url as string;
}

/** Checkout → Pay on the development provider's pages; returns the redirect after paying. */
export async function subscribe(client: StudyTestClient, priceId: string): Promise<string> {
  const checkoutUrl = await startCheckout(client, priceId);
  const page = await client.get(pathOf(checkoutUrl));
  expect(page.status).toBe(200);
  const paid = await client.postForm(`${pathOf(checkoutUrl)}/pay`, form({}));
  expect(paid.status, paid.text).toBe(303);
  return paid.headers.get("location") ?? "";
}
