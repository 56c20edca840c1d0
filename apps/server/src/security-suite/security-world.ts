import fs from "node:fs";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { afterAll, beforeAll } from "vitest";
import { developmentPriceId } from "../billing/plans.ts";
import type { Clock } from "../clock.ts";
import { loadConfiguration } from "../config.ts";
import { createServer, type ServerVariables } from "../create-server.ts";
import type { DatabaseEngine } from "../database/open-database.ts";
import { openTestDatabase, type TestDatabase } from "../database/test-databases.ts";
import { readLastCode, testOrigin } from "../identity/testing/identity-test-client.ts";
import { createOutboxMailer } from "../mail/outbox-mailer.ts";
import {
  compareFingerprints,
  fingerprintTables,
  readDatabaseLayout,
  readWriteCounter,
  restoreDatabaseSnapshot,
  takeDatabaseSnapshot,
  type DatabaseLayout,
  type DatabaseSnapshot,
  type IgnoredColumns,
} from "./database-snapshot.ts";
import { bookkeepingColumns } from "./refusals.ts";
import { securityRoles, sendAs, type Persona, type RouteRequest, type SecurityRole } from "./persona-client.ts";

export const personaPassword = "correct horse battery staple";
const fixtureDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
export const englishSubtitles = fs.readFileSync(path.join(fixtureDirectory, "harbour-ferry.en.xml"), "utf8");
export const swedishSubtitles = fs.readFileSync(path.join(fixtureDirectory, "harbour-ferry.sv.xml"), "utf8");
/** The clock stands still, so every session stays "recently authenticated" and no activity write is due. */
export const frozenNow = new Date("2026-11-22T09:00:00.000Z");

/** A web build with one page of each kind the site handler serves. */
function createFakeWebBuild(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-security-web-"));
  const page = (title: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><script>window.__title = ${JSON.stringify(title)};</script></head><body><h1>${title}</h1></body></html>`;
  fs.mkdirSync(path.join(directory, "assets"));
  fs.mkdirSync(path.join(directory, "__not-found"));
  fs.mkdirSync(path.join(directory, "gallery"));
  fs.writeFileSync(path.join(directory, "index.html"), page("Atelier"));
  fs.writeFileSync(path.join(directory, "gallery", "index.html"), page("Gallery"));
  fs.writeFileSync(path.join(directory, "__spa-fallback.html"), page("Loading"));
  fs.writeFileSync(path.join(directory, "__not-found", "index.html"), page("Not found"));
  fs.writeFileSync(path.join(directory, "assets", "entry-3f2a1b.js"), "console.log('atelier');\n");
  fs.writeFileSync(path.join(directory, "robots.txt"), "User-agent: *\nAllow: /\n");
  return directory;
}

export type SecurityTestApp = Hono<{ Variables: ServerVariables }>;

/**
 * The whole server as production wires it, in the test environment (so the development pages exist): default
 * identity settings (mandatory e-mail verification, login by code, every second factor), the development billing
 * provider, ALTCHA, a web build of a few pages, a frozen clock.
 */
export function createSecurityTestApp(testDatabase: TestDatabase, options: { webBuildDirectory: string; environment?: Record<string, string>; clock?: Clock }): SecurityTestApp {
  const configuration = loadConfiguration({
    NODE_ENV: "test",
    PUBLIC_ORIGIN: testOrigin,
    TRUST_PROXY: "true",
    WEB_BUILD_DIR: options.webBuildDirectory,
    ALTCHA_MAX_NUMBER: "50",
    CONTACT_RECIPIENT: "painter@example.ch",
    ...options.environment,
  });
  let mailSequence = 0;
  // Mails need increasing times under the frozen clock, so that "the last mail" is well defined.
  const mailer = createOutboxMailer({ database: testDatabase.database, mailFrom: configuration.mailFrom, clock: () => new Date(frozenNow.getTime() + (mailSequence += 1)) });
  return createServer({ configuration, database: testDatabase.database, mailer, clock: options.clock ?? (() => frozenNow) });
}

/** What the personas own, named by the routes' paths and bodies. */
export type SecurityResources = {
  /** The owner's private subtitle group and one of its pairs. */
  privateGroupId: string;
  privatePairId: string;
  privatePairIds: string[];
  /** The owner's public subtitle group and one of its pairs. */
  publicGroupId: string;
  publicPairId: string;
  publicPairIds: string[];
  /**
   * An open development checkout session of learner A: the owner's end in the owner's subscription, and a checkout
   * started after another expires it (decision 0078).
   */
  openCheckoutSessionId: string;
  /** A development billing portal session of the owner, and the owner's active subscription it shows. */
  portalSessionId: string;
  ownerSubscriptionId: string;
  ownerCustomerId: string;
  priceId: string;
  otherPriceId: string;
  /** A verified second address of the owner, and the number of the owner's session that is not the persona's. */
  ownerSecondaryEmail: string;
  ownerOtherSessionNumber: number;
  /** A solved ALTCHA challenge: spent by a contact message, unspent again after every restore. */
  solvedCaptchaToken: string;
};

export type SecurityWorld = {
  testDatabase: TestDatabase;
  app: SecurityTestApp;
  personas: Record<SecurityRole, Persona>;
  resources: SecurityResources;
  layout: DatabaseLayout;
  /** The database right after the world was built; every matrix cell starts from it. */
  snapshot: DatabaseSnapshot;
  /** Sends as a persona, without keeping the answer's cookies: personas never change. */
  send: (role: SecurityRole, method: string, request: RouteRequest, options?: Parameters<typeof sendAs>[4]) => ReturnType<typeof sendAs>;
  /** The tables that differ from the world's snapshot: entirely, or leaving the bookkeeping columns out. */
  changedTables: (ignoredColumns?: IgnoredColumns) => Promise<string[]>;
  /** Puts back every table that differs from the world's snapshot; returns their names. */
  restore: () => Promise<string[]>;
  destroy: () => Promise<void>;
};

const personaEmails: Record<Exclude<SecurityRole, "anonymous">, string> = {
  learnerA: "ada.learner@example.ch",
  learnerB: "bo.learner@example.ch",
  owner: "olga.owner@example.ch",
  subscriber: "sam.subscriber@example.ch",
};

function personaAddress(role: SecurityRole): string {
  return `198.51.100.${10 + securityRoles.indexOf(role)}`;
}

function parseJson(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

function expectStatus(what: string, answer: { status: number; text: string }, status: number): void {
  if (answer.status !== status) {
    throw new Error(`Building the security world: ${what} answered ${answer.status} instead of ${status}: ${answer.text.slice(0, 300)}`);
  }
}

/**
 * Signs up four users through the public API (verified by the mailed code, then a password login so that the session
 * counts as recently authenticated), uploads the owner's two subtitle groups through the real multipart endpoint,
 * subscribes the owner and the subscriber through the development checkout, and snapshots the database.
 *
 * @example
 * const world = await buildSecurityWorld("sqlite");
 * afterAll(() => world.destroy());
 */
/**
 * Builds the world before the tests of the calling `describe` and destroys it after them; read it inside tests.
 *
 * @example
 * const worldOf = useSecurityWorld("sqlite");
 * it("…", () => { listRegisteredRoutes(worldOf().app) });
 */
export function useSecurityWorld(engine: DatabaseEngine): () => SecurityWorld {
  let world: SecurityWorld | undefined;
  beforeAll(async () => {
    world = await buildSecurityWorld(engine);
  }, 60_000);
  afterAll(async () => {
    await world?.destroy();
  });
  return () => {
    if (!world) throw new Error("The security world is built in beforeAll: read it inside tests.");
    return world;
  };
}

export async function buildSecurityWorld(engine: DatabaseEngine, options: { environment?: Record<string, string> } = {}): Promise<SecurityWorld> {
  const testDatabase = await openTestDatabase(engine);
  const webBuildDirectory = createFakeWebBuild();
  const app = createSecurityTestApp(testDatabase, { webBuildDirectory, environment: options.environment });
  const newPersona = (role: SecurityRole): Persona => ({ role, email: role === "anonymous" ? null : personaEmails[role], userId: null, address: personaAddress(role), cookies: new Map(), appSessionToken: null });
  const personas = Object.fromEntries(securityRoles.map((role) => [role, newPersona(role)])) as Record<SecurityRole, Persona>;
  const build = (persona: Persona, method: string, request: RouteRequest) => sendAs(app, persona, method, request, { storeCookies: true });

  for (const persona of Object.values(personas)) {
    expectStatus("the first page", await build(persona, "GET", { path: "/_allauth/browser/v1/config" }), 200);
    if (persona.email === null) continue;
    const signup = newPersona(persona.role);
    await build(signup, "GET", { path: "/_allauth/browser/v1/config" });
    expectStatus(`the signup of ${persona.email}`, await build(signup, "POST", { path: "/_allauth/browser/v1/auth/signup", json: { email: persona.email, password: personaPassword } }), 401);
    const code = await readLastCode(testDatabase.database, persona.email);
    const verified = await build(signup, "POST", { path: "/_allauth/browser/v1/auth/email/verify", json: { key: code } });
    expectStatus(`the verification of ${persona.email}`, verified, 200);
    persona.userId = String((parseJson(verified.text).data as { user: { id: string } }).user.id);
    expectStatus(`the browser login of ${persona.email}`, await build(persona, "POST", { path: "/_allauth/browser/v1/auth/login", json: { email: persona.email, password: personaPassword } }), 200);
    const appLogin = await build(persona, "POST", { path: "/_allauth/app/v1/auth/login", json: { email: persona.email, password: personaPassword } });
    expectStatus(`the app login of ${persona.email}`, appLogin, 200);
    persona.appSessionToken = String((parseJson(appLogin.text).meta as { session_token: string }).session_token);
  }

  const upload = async (isPublic: boolean, name: string) => {
    const answer = await build(personas.owner, "POST", {
      path: "/api/upload-subtitles/",
      form: {
        english: { fileName: "Harbour Ferry.en.xml", content: englishSubtitles, type: "text/xml" },
        swedish: { fileName: "Harbour Ferry.sv.xml", content: swedishSubtitles, type: "text/xml" },
        is_public: String(isPublic),
        name,
      },
    });
    expectStatus(`the upload of ${name}`, answer, 201);
    const groupId = String((parseJson(answer.text).group as { id: string }).id);
    const stats = await build(personas.owner, "GET", { path: `/api/subtitle-groups/${groupId}/stats/` });
    const pairIds = (parseJson(stats.text).pairs as { id: string }[]).map((pair) => pair.id);
    return { groupId, pairIds };
  };
  const privateGroup = await upload(false, "Harbour ferry (private)");
  const publicGroup = await upload(true, "Harbour ferry (public)");
  // The anonymous learner has progress of its own (and so a learner cookie).
  expectStatus("an anonymous rating", await build(personas.anonymous, "POST", { path: `/api/subtitle-pairs/${publicGroup.pairIds[0]}/rate/`, json: { is_correct: true } }), 200);

  const priceId = developmentPriceId("plus", "month");
  const otherPriceId = developmentPriceId("studio", "year");
  const startCheckout = async (persona: Persona) => {
    const answer = await build(persona, "POST", { path: "/user/create-checkout-session", json: { priceId } });
    expectStatus(`a checkout of ${persona.email}`, answer, 200);
    return String(parseJson(answer.text).url).split("/").at(-1) ?? "";
  };
  const pay = async (persona: Persona, checkoutSessionId: string) =>
    expectStatus(`the payment of ${persona.email}`, await build(persona, "POST", { path: `/dev/billing/checkout/${checkoutSessionId}/pay`, urlencoded: {} }), 303);
  await pay(personas.owner, await startCheckout(personas.owner));
  const openCheckoutSessionId = await startCheckout(personas.learnerA);
  await pay(personas.subscriber, await startCheckout(personas.subscriber));
  const portal = await build(personas.owner, "POST", { path: "/user/create-portal-session" });
  expectStatus("the owner's portal session", portal, 303);
  const portalSessionId = (portal.headers.get("location") ?? "").split("/").at(-1) ?? "";
  const ownerSubscription = await testDatabase.database
    .selectFrom("billing_subscription")
    .select(["subscription_id", "customer_id"])
    .where("user_id", "=", personas.owner.userId)
    .executeTakeFirstOrThrow();

  const ownerSecondaryEmail = "olga.studio@example.ch";
  expectStatus("the owner's second address", await build(personas.owner, "POST", { path: "/_allauth/browser/v1/account/email", json: { email: ownerSecondaryEmail } }), 200);
  // Verified, because allauth lets nobody with an unverified address set up a second factor.
  const ownerSecondaryCode = await readLastCode(testDatabase.database, ownerSecondaryEmail);
  expectStatus("the verification of the owner's second address", await build(personas.owner, "POST", { path: "/_allauth/browser/v1/auth/email/verify", json: { key: ownerSecondaryCode } }), 200);
  const ownerSessions = await build(personas.owner, "GET", { path: "/_allauth/browser/v1/auth/sessions" });
  const ownerOtherSession = (parseJson(ownerSessions.text).data as { id: number; is_current: boolean }[]).find((session) => !session.is_current);
  if (!ownerOtherSession) throw new Error(`Building the security world: the owner has no second session: ${ownerSessions.text}`);

  const challenge = parseJson((await build(personas.anonymous, "GET", { path: "/captcha/challenge" })).text) as unknown as Challenge;
  const solvedCaptchaToken = Buffer.from(JSON.stringify({ challenge, solution: await solveChallenge({ challenge, deriveKey }) })).toString("base64");

  const layout = await readDatabaseLayout(testDatabase);
  const snapshot = await takeDatabaseSnapshot(testDatabase, layout);
  const noColumnsIgnored: IgnoredColumns = {};
  const baselines = new Map<IgnoredColumns, Record<string, string>>([
    [noColumnsIgnored, await fingerprintTables(testDatabase, layout)],
    [bookkeepingColumns, await fingerprintTables(testDatabase, layout, bookkeepingColumns)],
  ]);
  // Most requests write nothing; the counter spares them the fingerprints.
  let writeCounterAtBaseline = await readWriteCounter(testDatabase, layout);
  const changedTables = async (ignoredColumns: IgnoredColumns = noColumnsIgnored) => {
    const baseline = baselines.get(ignoredColumns);
    if (!baseline) throw new Error("The security world compares tables entirely or without bookkeepingColumns, nothing else.");
    if ((await readWriteCounter(testDatabase, layout)) === writeCounterAtBaseline) return [];
    return compareFingerprints(baseline, await fingerprintTables(testDatabase, layout, ignoredColumns));
  };
  const resources: SecurityResources = {
    privateGroupId: privateGroup.groupId,
    privatePairId: privateGroup.pairIds[0] ?? "",
    privatePairIds: privateGroup.pairIds,
    publicGroupId: publicGroup.groupId,
    publicPairId: publicGroup.pairIds[0] ?? "",
    publicPairIds: publicGroup.pairIds,
    openCheckoutSessionId,
    portalSessionId,
    ownerSubscriptionId: ownerSubscription.subscription_id,
    ownerCustomerId: ownerSubscription.customer_id,
    ownerSecondaryEmail,
    ownerOtherSessionNumber: ownerOtherSession.id,
    solvedCaptchaToken,
    priceId,
    otherPriceId,
  };

  return {
    testDatabase,
    app,
    personas,
    resources,
    layout,
    snapshot,
    send: (role, method, request, sendOptions) => sendAs(app, personas[role], method, request, { ...sendOptions, storeCookies: false }),
    changedTables,
    restore: async () => {
      const changed = await changedTables();
      if (changed.length > 0) await restoreDatabaseSnapshot(testDatabase, snapshot, changed);
      writeCounterAtBaseline = await readWriteCounter(testDatabase, layout);
      return changed;
    },
    destroy: async () => {
      await testDatabase.destroy();
      fs.rmSync(webBuildDirectory, { recursive: true, force: true });
    },
  };
}
