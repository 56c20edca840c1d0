import type { Hono } from "hono";
import type { Clock } from "../clock.ts";
import type { BillingConfiguration } from "../config.ts";
import type { AtelierDatabase } from "../database/open-database.ts";
import type { BillingProvider } from "./billing-provider.ts";
import { createBillingRoutes } from "./billing-routes.ts";
import { createBillingService, type BillingService } from "./billing-service.ts";
import { createDevBillingPages } from "./dev-billing-pages.ts";
export { devBillingErrorPage } from "./dev-billing-pages.ts";
import { createDevProvider, type WebhookDelivery } from "./dev-provider.ts";
import { createPlanCatalogue, developmentPriceId, type PlanCatalogue } from "./plans.ts";
import { createStripeProvider } from "./stripe-provider.ts";

export type { BillingProvider, ProviderSubscription, VerifiedWebhookEvent } from "./billing-provider.ts";
export type { BillingService, PricingProduct, SubscriptionStatus } from "./billing-service.ts";
export { freeEntitlements, plans, type Plan, type PlanEntitlements } from "./plans.ts";
export { developmentWebhookSecret } from "./webhook-signature.ts";

export type BillingModuleOptions = {
  billing: BillingConfiguration;
  database: AtelierDatabase;
  publicOrigin: string;
  clock: Clock;
  /** How the dev provider reaches our own `/stripe/webhook` (`createServer` passes `app.request`). */
  deliverWebhook: WebhookDelivery;
  /** Replaces the configured provider (tests: a provider whose sync fails). */
  provider?: BillingProvider;
};

export type BillingModule = {
  service: BillingService;
  catalogue: PlanCatalogue;
  /** `/user/*` and `/stripe/webhook`, to mount at the root. */
  routes: Hono;
  /** The dev provider's pages, to mount at `/dev/billing`; `null` with Stripe. */
  devPages: Hono | null;
};

/**
 * Builds the configured provider, the service and the routes.
 *
 * @example
 * const billing = createBillingModule({ billing: configuration.billing, database, publicOrigin, clock, deliverWebhook });
 */
export function createBillingModule(options: BillingModuleOptions): BillingModule {
  const configuration = options.billing;
  const catalogue =
    configuration.provider === "stripe" ? createPlanCatalogue((key, interval) => configuration.priceIds[`${key}_${interval}`] ?? `missing_${key}_${interval}`) : createPlanCatalogue(developmentPriceId);
  let provider = options.provider;
  let devPages: Hono | null = null;
  if (configuration.provider === "dev") {
    const dev = createDevProvider({ database: options.database, catalogue, publicOrigin: options.publicOrigin, clock: options.clock, deliverWebhook: options.deliverWebhook });
    provider ??= dev.provider;
    devPages = createDevBillingPages({ dev, catalogue, publicOrigin: options.publicOrigin });
  } else {
    provider ??= createStripeProvider({ secretKey: configuration.secretKey, webhookSecret: configuration.webhookSecret, api: configuration.api, clock: options.clock });
  }
  const service = createBillingService({ database: options.database, provider, catalogue, publicOrigin: options.publicOrigin, clock: options.clock });
  return { service, catalogue, routes: createBillingRoutes({ billing: service, publicOrigin: options.publicOrigin }), devPages };
}
