import { developmentWebhookSecret } from "../billing/index.ts";
import { signWebhookPayload } from "../billing/webhook-signature.ts";
import type { RouteRequest, SecurityRole } from "./persona-client.ts";
import { englishSubtitles, frozenNow, personaPassword, swedishSubtitles, type SecurityResources } from "./security-world.ts";

/** The status each role gets. Roles are defined in `security-world.ts`; "owner" owns every resource a path names. */
export type ExpectedAnswers = Readonly<Record<SecurityRole, number>>;

export type RouteCase = {
  /** Which resource or input the case uses, e.g. "the owner's private group". */
  description: string;
  request: (resources: SecurityResources) => RouteRequest;
  expected: ExpectedAnswers;
};

export type RouteExpectation = {
  /** The rule behind the answers, in one sentence. */
  rule: string;
  /**
   * "private": the answer depends on who asks (or is unique to the request), so no shared cache may keep it and it
   * carries `Cache-Control` with `private` or `no-store`. "shared": the same for everyone.
   */
  cache: "private" | "shared";
  cases: readonly RouteCase[];
};

function everyone(status: number): ExpectedAnswers {
  return { anonymous: status, learnerA: status, learnerB: status, owner: status, subscriber: status };
}

function anonymousAndSignedIn(anonymous: number, signedIn: number): ExpectedAnswers {
  return { anonymous, learnerA: signedIn, learnerB: signedIn, owner: signedIn, subscriber: signedIn };
}

function ownerAndEveryoneElse(owner: number, everyoneElse: number): ExpectedAnswers {
  return { anonymous: everyoneElse, learnerA: everyoneElse, learnerB: everyoneElse, owner, subscriber: everyoneElse };
}

function ownerSignedInOthersAndAnonymous(owner: number, otherSignedIn: number, anonymous: number): ExpectedAnswers {
  return { anonymous, learnerA: otherSignedIn, learnerB: otherSignedIn, owner, subscriber: otherSignedIn };
}

const subtitleUpload = (name: string): RouteRequest => ({
  path: "/api/upload-subtitles/",
  form: {
    english: { fileName: "Harbour Ferry.en.xml", content: englishSubtitles, type: "text/xml" },
    swedish: { fileName: "Harbour Ferry.sv.xml", content: swedishSubtitles, type: "text/xml" },
    is_public: "false",
    name,
  },
});

function signedWebhook(resources: SecurityResources): RouteRequest {
  const payload = JSON.stringify({
    id: "evt_security_suite",
    object: "event",
    type: "customer.subscription.updated",
    created: Math.floor(frozenNow.getTime() / 1000),
    livemode: false,
    data: { object: { id: resources.ownerSubscriptionId, object: "subscription", customer: resources.ownerCustomerId } },
  });
  return { path: "/stripe/webhook", raw: { body: payload, contentType: "application/json" }, headers: { "Stripe-Signature": signWebhookPayload(payload, developmentWebhookSecret, () => frozenNow) } };
}

/** A group route: once for the owner's private group, once for the owner's public group. */
function groupCases(
  method: "GET" | "POST" | "DELETE",
  suffix: string,
  expected: { privateGroup: ExpectedAnswers; publicGroup: ExpectedAnswers },
  body?: (resources: SecurityResources, group: "private" | "public") => unknown,
): RouteCase[] {
  const request = (group: "private" | "public") => (resources: SecurityResources): RouteRequest => ({
    path: `/api/subtitle-groups/${group === "private" ? resources.privateGroupId : resources.publicGroupId}/${suffix}`,
    ...(body ? { json: body(resources, group) } : method === "GET" ? {} : { json: {} }),
  });
  return [
    { description: "the owner's private group", request: request("private"), expected: expected.privateGroup },
    { description: "the owner's public group", request: request("public"), expected: expected.publicGroup },
  ];
}

function pairCases(suffix: string, expected: { privatePair: ExpectedAnswers; publicPair: ExpectedAnswers }, body?: unknown): RouteCase[] {
  const request = (pair: "private" | "public") => (resources: SecurityResources): RouteRequest => ({
    path: `/api/subtitle-pairs/${pair === "private" ? resources.privatePairId : resources.publicPairId}/${suffix}`,
    ...(body === undefined ? {} : { json: body }),
  });
  return [
    { description: "a pair of the owner's private group", request: request("private"), expected: expected.privatePair },
    { description: "a pair of the owner's public group", request: request("public"), expected: expected.publicPair },
  ];
}

const single = (request: RouteCase["request"], expected: ExpectedAnswers, description = "the usual request"): RouteCase[] => [{ description, request, expected }];

/** The site, `/site-config`, captcha, contact, study, billing, development pages and the provider callback. */
const siteAndApiExpectations: Record<string, RouteExpectation> = {
  "GET /*": {
    cache: "shared",
    rule: "The prerendered site is the same for everyone.",
    cases: [
      { description: "the home page", request: () => ({ path: "/" }), expected: everyone(200) },
      { description: "a prerendered page", request: () => ({ path: "/gallery" }), expected: everyone(200) },
      { description: "a client-only page (SPA fallback)", request: () => ({ path: "/dashboard" }), expected: everyone(200) },
      { description: "a fingerprinted asset", request: () => ({ path: "/assets/entry-3f2a1b.js" }), expected: everyone(200) },
      { description: "a missing page", request: () => ({ path: "/no-such-page" }), expected: everyone(404) },
      { description: "a path with an encoded traversal", request: () => ({ path: "/assets/..%2f..%2fetc%2fpasswd" }), expected: everyone(400) },
    ],
  },
  "GET /healthz": { cache: "private", rule: "Anyone may ask whether the process is alive (proxies and orchestrators).", cases: single(() => ({ path: "/healthz" }), everyone(200)) },
  "GET /readyz": { cache: "private", rule: "Anyone may ask whether the process can serve: its database answers.", cases: single(() => ({ path: "/readyz" }), everyone(200)) },
  "GET /site-config": { cache: "shared", rule: "Public settings.", cases: single(() => ({ path: "/site-config" }), everyone(200)) },
  "GET /captcha/challenge": { cache: "private", rule: "Anyone may ask for a captcha challenge.", cases: single(() => ({ path: "/captcha/challenge" }), everyone(200)) },
  "POST /messages/contact": {
    cache: "shared",
    rule: "Anyone may write to the painter, with a solved captcha.",
    cases: single((resources) => ({ path: "/messages/contact", json: { name: "Vera", email: "vera@example.ch", message: "Is the harbour painting for sale?", recaptchaToken: resources.solvedCaptchaToken } }), everyone(201)),
  },
  "POST /messages/contact/": {
    cache: "shared",
    rule: "Anyone may write to the painter, with a solved captcha.",
    cases: single((resources) => ({ path: "/messages/contact/", json: { name: "Vera", email: "vera@example.ch", message: "Is the harbour painting for sale?", recaptchaToken: resources.solvedCaptchaToken } }), everyone(201)),
  },

  "GET /api/subtitle-groups/": { cache: "private", rule: "Everyone sees the public groups and their own.", cases: single(() => ({ path: "/api/subtitle-groups/" }), everyone(200)) },
  "POST /api/upload-subtitles/": { cache: "private", rule: "Only signed-in users upload.", cases: single(() => subtitleUpload("Harbour ferry again"), anonymousAndSignedIn(401, 201)) },
  "POST /api/subtitle-groups/:id/toggle-public/": {
    cache: "private",
    rule: "Only the owner changes a group; a private group does not exist for anyone else.",
    cases: groupCases("POST", "toggle-public/", { privateGroup: ownerAndEveryoneElse(200, 404), publicGroup: ownerAndEveryoneElse(200, 403) }),
  },
  "POST /api/subtitle-groups/:id/rename/": {
    cache: "private",
    rule: "Only the owner changes a group; a private group does not exist for anyone else.",
    cases: groupCases("POST", "rename/", { privateGroup: ownerAndEveryoneElse(200, 404), publicGroup: ownerAndEveryoneElse(200, 403) }, () => ({ name: "Renamed by the suite" })),
  },
  "DELETE /api/subtitle-groups/:id/": {
    cache: "private",
    rule: "Only the owner deletes a group; a private group does not exist for anyone else.",
    cases: groupCases("DELETE", "", { privateGroup: ownerAndEveryoneElse(204, 404), publicGroup: ownerAndEveryoneElse(204, 403) }),
  },
  "GET /api/subtitle-groups/:id/stats/": {
    cache: "private",
    rule: "Anyone reads a public group; only the owner reads a private one.",
    cases: groupCases("GET", "stats/", { privateGroup: ownerAndEveryoneElse(200, 404), publicGroup: everyone(200) }),
  },
  "GET /api/subtitle-groups/:id/preview/": {
    cache: "private",
    rule: "Anyone pages through a public group; only the owner through a private one.",
    cases: groupCases("GET", "preview/?page=2&page_size=5&only_doubtful=1", { privateGroup: ownerAndEveryoneElse(200, 404), publicGroup: everyone(200) }),
  },
  "GET /api/subtitle-groups/:id/available-cards/": {
    cache: "private",
    rule: "Anyone counts the cards of a public group; only the owner those of a private one.",
    cases: groupCases("GET", "available-cards/?range=memorized&startIndex=2&endIndex=9", { privateGroup: ownerAndEveryoneElse(200, 404), publicGroup: everyone(200) }),
  },
  "GET /api/subtitle-groups/:id/pairs/": {
    cache: "private",
    rule: "Anyone studies a public group; only the owner studies a private one.",
    cases: groupCases("GET", "pairs/?mode=test&range=all&cardCount=5", { privateGroup: ownerAndEveryoneElse(200, 404), publicGroup: everyone(200) }),
  },
  "POST /api/subtitle-pairs/:id/rate/": {
    cache: "private",
    rule: "Anyone rates (their own progress on) a pair of a public group; only the owner rates one of a private group.",
    cases: pairCases("rate/", { privatePair: ownerAndEveryoneElse(200, 404), publicPair: everyone(200) }, { is_correct: true }),
  },
  "DELETE /api/subtitle-pairs/:id/": {
    cache: "private",
    rule: "Only the owner deletes a pair; a pair of a private group does not exist for anyone else.",
    cases: pairCases("", { privatePair: ownerAndEveryoneElse(204, 404), publicPair: ownerAndEveryoneElse(204, 403) }),
  },
  "PATCH /api/subtitle-pairs/:id/": {
    cache: "private",
    rule: "Only the owner edits a pair; a pair of a private group does not exist for anyone else.",
    cases: pairCases("", { privatePair: ownerAndEveryoneElse(200, 404), publicPair: ownerAndEveryoneElse(200, 403) }, { english: "Good morning, everyone." }),
  },
  "POST /api/subtitle-pairs/:id/merge-next/": {
    cache: "private",
    rule: "Only the owner merges a pair with the next one.",
    cases: pairCases("merge-next/", { privatePair: ownerAndEveryoneElse(200, 404), publicPair: ownerAndEveryoneElse(200, 403) }),
  },
  "POST /api/subtitle-pairs/:id/split/": {
    cache: "private",
    rule: "Only the owner splits a pair; these pairs are one sentence a side, so the owner is told there is no boundary (400).",
    cases: pairCases("split/", { privatePair: ownerAndEveryoneElse(400, 404), publicPair: ownerAndEveryoneElse(400, 403) }, { english_sentences: 1, swedish_sentences: 1 }),
  },
  "POST /api/subtitle-pairs/:id/hide/": {
    cache: "private",
    rule: "Anyone hides a pair of a public group from their own study; only the owner sees (and hides) a private one.",
    cases: pairCases("hide/", { privatePair: ownerAndEveryoneElse(200, 404), publicPair: everyone(200) }),
  },
  "DELETE /api/subtitle-pairs/:id/hide/": {
    cache: "private",
    rule: "Anyone shows again a pair they hid; a pair of a private group does not exist for anyone else.",
    cases: pairCases("hide/", { privatePair: ownerAndEveryoneElse(200, 404), publicPair: everyone(200) }),
  },
  "POST /api/subtitle-groups/:id/mark-studied/": {
    cache: "private",
    rule: "Anyone marks (their own progress on) a public group; only the owner a private one.",
    cases: groupCases("POST", "mark-studied/", { privateGroup: ownerAndEveryoneElse(200, 404), publicGroup: everyone(200) }, (resources, group) => ({
      pairIds: (group === "private" ? resources.privatePairIds : resources.publicPairIds).slice(0, 3),
    })),
  },
  "POST /api/subtitle-groups/:id/reset-stats/": {
    cache: "private",
    rule: "Anyone resets their own progress on a public group; only the owner on a private one.",
    cases: groupCases("POST", "reset-stats/", { privateGroup: ownerAndEveryoneElse(200, 404), publicGroup: everyone(200) }),
  },
  "GET /api/account/security-events/": {
    cache: "private",
    rule: "Only a signed-in user sees (their own) security events.",
    cases: single(() => ({ path: "/api/account/security-events/" }), anonymousAndSignedIn(401, 200)),
  },
  "POST /api/merge-progress/": { cache: "private", rule: "Only a signed-in user takes over anonymous progress.", cases: single(() => ({ path: "/api/merge-progress/", json: {} }), anonymousAndSignedIn(401, 200)) },
  "GET /api/subtitle-groups/:id/export.csv": {
    cache: "private",
    rule: "The owner exports their own groups; a public group of someone else takes a plan with shared-deck exports (the subscriber's Plus), and a visitor must sign in.",
    cases: groupCases("GET", "export.csv", {
      privateGroup: ownerAndEveryoneElse(200, 404),
      publicGroup: { anonymous: 401, learnerA: 403, learnerB: 403, owner: 200, subscriber: 200 },
    }),
  },
  "GET /api/subtitle-groups/:id/export.tsv": {
    cache: "private",
    rule: "The owner exports their own groups; a public group of someone else takes a plan with shared-deck exports (the subscriber's Plus), and a visitor must sign in.",
    cases: groupCases("GET", "export.tsv", {
      privateGroup: ownerAndEveryoneElse(200, 404),
      publicGroup: { anonymous: 401, learnerA: 403, learnerB: 403, owner: 200, subscriber: 200 },
    }),
  },

  "GET /api/account/export/": {
    cache: "private",
    rule: "Each signed-in user downloads their own data; a visitor is asked to sign in.",
    cases: single(() => ({ path: "/api/account/export/" }), anonymousAndSignedIn(401, 200)),
  },

  "DELETE /api/account/": {
    cache: "private",
    rule: "Each signed-in user deletes their own account (after a recent authentication, else allauth's reauthentication 401); a visitor is asked to sign in.",
    cases: single(() => ({ path: "/api/account/" }), anonymousAndSignedIn(401, 204)),
  },

  "GET /user/pricing": { cache: "shared", rule: "Prices are public.", cases: single(() => ({ path: "/user/pricing" }), everyone(200)) },
  "GET /user/subscription-status": { cache: "private", rule: "Each signed-in user reads their own status.", cases: single(() => ({ path: "/user/subscription-status" }), anonymousAndSignedIn(401, 200)) },
  "POST /user/create-checkout-session": {
    cache: "private",
    rule: "Each signed-in user checks out for themselves (a subscriber is sent to the portal instead).",
    cases: single((resources) => ({ path: "/user/create-checkout-session", json: { priceId: resources.priceId } }), anonymousAndSignedIn(401, 200)),
  },
  "POST /user/create-portal-session": {
    cache: "private",
    rule: "Each signed-in user reaches their own portal; without a customer record, the pricing page.",
    cases: single(() => ({ path: "/user/create-portal-session" }), anonymousAndSignedIn(401, 303)),
  },
  "POST /stripe/webhook": {
    cache: "shared",
    rule: "The signature, not a session, authorises a webhook.",
    cases: [
      { description: "an unsigned delivery", request: (resources) => ({ ...signedWebhook(resources), headers: {} }), expected: everyone(400) },
      { description: "a delivery signed with the development secret", request: signedWebhook, expected: everyone(200) },
    ],
  },

  "GET /dev/billing/theme.js": {
    cache: "shared",
    rule: "Development stand-in's theme script: the same for everyone; never mounted in production.",
    cases: single(() => ({ path: "/dev/billing/theme.js" }), everyone(200)),
  },
  "GET /dev/billing/checkout/:sessionId": {
    cache: "private",
    rule: "Development stand-in for Stripe's hosted checkout: the unguessable session id is the capability, as at Stripe; never mounted in production.",
    cases: single((resources) => ({ path: `/dev/billing/checkout/${resources.openCheckoutSessionId}` }), everyone(200), "learner A's open checkout session"),
  },
  "POST /dev/billing/checkout/:sessionId/pay": {
    cache: "private",
    rule: "Development stand-in for Stripe's hosted checkout: the unguessable session id is the capability, as at Stripe; never mounted in production.",
    cases: single((resources) => ({ path: `/dev/billing/checkout/${resources.openCheckoutSessionId}/pay`, urlencoded: {} }), everyone(303), "learner A's open checkout session"),
  },
  "POST /dev/billing/checkout/:sessionId/fail": {
    cache: "private",
    rule: "Development stand-in for Stripe's hosted checkout: the unguessable session id is the capability, as at Stripe; never mounted in production.",
    cases: single((resources) => ({ path: `/dev/billing/checkout/${resources.openCheckoutSessionId}/fail`, urlencoded: {} }), everyone(303), "learner A's open checkout session"),
  },
  "POST /dev/billing/checkout/:sessionId/cancel": {
    cache: "private",
    rule: "Development stand-in for Stripe's hosted checkout: the unguessable session id is the capability, as at Stripe; never mounted in production.",
    cases: single((resources) => ({ path: `/dev/billing/checkout/${resources.openCheckoutSessionId}/cancel`, urlencoded: {} }), everyone(303), "learner A's open checkout session"),
  },
  "GET /dev/billing/portal/:portalSessionId": {
    cache: "private",
    rule: "Development stand-in for Stripe's customer portal: the unguessable portal session id is the capability, as at Stripe; never mounted in production.",
    cases: single((resources) => ({ path: `/dev/billing/portal/${resources.portalSessionId}` }), everyone(200), "the owner's portal session"),
  },
  "POST /dev/billing/portal/:portalSessionId/switch": {
    cache: "private",
    rule: "Development stand-in for Stripe's customer portal: the unguessable portal session id is the capability, as at Stripe; never mounted in production.",
    cases: single(
      (resources) => ({ path: `/dev/billing/portal/${resources.portalSessionId}/switch`, urlencoded: { subscription_id: resources.ownerSubscriptionId, price_id: resources.otherPriceId } }),
      everyone(303),
      "the owner's portal session and subscription",
    ),
  },
  "POST /dev/billing/portal/:portalSessionId/cancel": {
    cache: "private",
    rule: "Development stand-in for Stripe's customer portal: the unguessable portal session id is the capability, as at Stripe; never mounted in production.",
    cases: single(
      (resources) => ({ path: `/dev/billing/portal/${resources.portalSessionId}/cancel`, urlencoded: { subscription_id: resources.ownerSubscriptionId } }),
      everyone(303),
      "the owner's portal session and subscription",
    ),
  },
  "POST /dev/billing/portal/:portalSessionId/resume": {
    cache: "private",
    rule: "Development stand-in for Stripe's customer portal: the unguessable portal session id is the capability, as at Stripe; never mounted in production.",
    cases: single(
      (resources) => ({ path: `/dev/billing/portal/${resources.portalSessionId}/resume`, urlencoded: { subscription_id: resources.ownerSubscriptionId } }),
      everyone(303),
      "the owner's portal session and subscription",
    ),
  },
  "GET /dev/outbox": { cache: "private", rule: "The development outbox; never mounted in production.", cases: single(() => ({ path: "/dev/outbox" }), everyone(200)) },
  "GET /dev/outbox/view": { cache: "private", rule: "The development outbox; never mounted in production.", cases: single(() => ({ path: "/dev/outbox/view" }), everyone(200)) },

  "GET /accounts/:provider/login/callback/": {
    cache: "private",
    rule: "A provider's return without a pending redirect of this session ends on the error page.",
    cases: single(() => ({ path: "/accounts/github/login/callback/?code=stolen&state=guessed" }), everyone(302)),
  },
  "GET /accounts/:provider/login/callback": {
    cache: "private",
    rule: "A provider's return without a pending redirect of this session ends on the error page.",
    cases: single(() => ({ path: "/accounts/github/login/callback?code=stolen&state=guessed" }), everyone(302)),
  },
};

/**
 * allauth's headless API for one client. In the browser the roles carry their session cookie; in the app, their
 * `X-Session-Token`. Bodies name the owner's data, so "owner" acts on its own account and every other user on
 * someone else's.
 */
function identityExpectations(client: "browser" | "app"): Record<string, RouteExpectation> {
  // allauth marks every answer as never cacheable; each depends on the session.
  const cache = "private";
  const base = `/_allauth/${client}/v1`;
  const route = (method: string, path: string) => `${method} ${base}${path}`;
  const at = (path: string, init: Omit<RouteRequest, "path"> = {}) => (): RouteRequest => ({ path: `${base}${path}`, ...init });
  const signedInOnly = (signedIn: number) => anonymousAndSignedIn(401, signedIn);
  const expectations: Record<string, RouteExpectation> = {
    [route("GET", "/config")]: { cache, rule: "Public configuration.", cases: single(at("/config"), everyone(200)) },
    [route("GET", "/auth/session")]: { cache, rule: "allauth answers 401 without a session.", cases: single(at("/auth/session"), signedInOnly(200)) },
    [route("DELETE", "/auth/session")]: { cache, rule: "Signing out always answers 401 (no session afterwards).", cases: single(at("/auth/session"), everyone(401)) },
    [route("POST", "/auth/login")]: {
      cache,
      rule: "Anyone may sign in; a signed-in session gets 409.",
      cases: single(at("/auth/login", { json: { email: "ada.learner@example.ch", password: personaPassword } }), anonymousAndSignedIn(200, 409), "learner A's credentials"),
    },
    [route("POST", "/auth/signup")]: {
      cache,
      rule: "Anyone may sign up (401: e-mail verification pending); a signed-in session gets 409.",
      cases: single(at("/auth/signup", { json: { email: "newcomer@example.ch", password: personaPassword } }), anonymousAndSignedIn(401, 409)),
    },
    [route("POST", "/auth/reauthenticate")]: { cache, rule: "Only a signed-in user reauthenticates.", cases: single(at("/auth/reauthenticate", { json: { password: personaPassword } }), signedInOnly(200)) },
    [route("POST", "/auth/code/request")]: {
      cache,
      rule: "Anyone may ask for a sign-in code (401: code pending); a signed-in session gets 409.",
      cases: single(at("/auth/code/request", { json: { email: "ada.learner@example.ch" } }), anonymousAndSignedIn(401, 409)),
    },
    [route("POST", "/auth/code/confirm")]: { cache, rule: "No sign-in code is pending in any session of the world.", cases: single(at("/auth/code/confirm", { json: { code: "ABCD-EFGH" } }), everyone(409)) },
    [route("POST", "/auth/code/resend")]: { cache, rule: "No sign-in code is pending in any session of the world.", cases: single(at("/auth/code/resend", { json: {} }), everyone(409)) },
    [route("GET", "/auth/email/verify")]: {
      cache,
      rule: "Verification is by code, and no code is pending in any session of the world.",
      cases: single(at("/auth/email/verify", { headers: { "X-Email-Verification-Key": "ABCD-EFGH" } }), everyone(409)),
    },
    [route("POST", "/auth/email/verify")]: { cache, rule: "Verification is by code, and no code is pending in any session of the world.", cases: single(at("/auth/email/verify", { json: { key: "ABCD-EFGH" } }), everyone(409)) },
    [route("POST", "/auth/email/verify/resend")]: { cache, rule: "No verification is pending in any session of the world.", cases: single(at("/auth/email/verify/resend", { json: {} }), everyone(409)) },
    [route("POST", "/auth/password/request")]: {
      cache,
      rule: "Anyone may ask for a reset link; the answer does not say whether the address exists.",
      cases: single(at("/auth/password/request", { json: { email: "olga.owner@example.ch" } }), everyone(200)),
    },
    [route("GET", "/auth/password/reset")]: { cache, rule: "An unknown reset key is refused for everyone.", cases: single(at("/auth/password/reset", { headers: { "X-Password-Reset-Key": "unknown-key" } }), everyone(400)) },
    [route("POST", "/auth/password/reset")]: {
      cache,
      rule: "An unknown reset key is refused for everyone.",
      cases: single(at("/auth/password/reset", { json: { key: "unknown-key", password: "another horse battery staple" } }), everyone(400)),
    },
    [route("POST", "/account/password/change")]: {
      cache,
      rule: "Only a signed-in user changes their own password.",
      cases: single(at("/account/password/change", { json: { current_password: personaPassword, new_password: "another horse battery staple" } }), signedInOnly(200)),
    },
    [route("GET", "/account/email")]: { cache, rule: "Each signed-in user lists their own addresses.", cases: single(at("/account/email"), signedInOnly(200)) },
    [route("POST", "/account/email")]: { cache, rule: "Each signed-in user adds to their own addresses.", cases: single(at("/account/email", { json: { email: "another.address@example.ch" } }), signedInOnly(200)) },
    [route("PUT", "/account/email")]: {
      cache,
      rule: "Only the owner of an address reaches it (403: verified already, no mail); for anyone else it is unknown.",
      cases: [{ description: "the owner's second address", request: (resources) => at("/account/email", { json: { email: resources.ownerSecondaryEmail } })(), expected: ownerSignedInOthersAndAnonymous(403, 400, 401) }],
    },
    [route("PATCH", "/account/email")]: {
      cache,
      rule: "Only the owner of an address makes it primary; for anyone else it is unknown.",
      cases: single(at("/account/email", { json: { email: "olga.owner@example.ch", primary: true } }), ownerSignedInOthersAndAnonymous(200, 400, 401), "the owner's primary address"),
    },
    [route("DELETE", "/account/email")]: {
      cache,
      rule: "Only the owner of an address removes it; for anyone else it is unknown.",
      cases: [{ description: "the owner's second address", request: (resources) => at("/account/email", { json: { email: resources.ownerSecondaryEmail } })(), expected: ownerSignedInOthersAndAnonymous(200, 400, 401) }],
    },
    [route("GET", "/auth/provider/signup")]: { cache, rule: "No provider signup is pending in any session of the world.", cases: single(at("/auth/provider/signup"), everyone(409)) },
    [route("POST", "/auth/provider/signup")]: { cache, rule: "No provider signup is pending in any session of the world.", cases: single(at("/auth/provider/signup", { json: { email: "newcomer@example.ch" } }), everyone(409)) },
    [route("GET", "/account/providers")]: { cache, rule: "Each signed-in user lists their own connected accounts.", cases: single(at("/account/providers"), signedInOnly(200)) },
    [route("DELETE", "/account/providers")]: {
      cache,
      rule: "Only a signed-in user disconnects, and only their own accounts (none is connected in the world).",
      cases: single(at("/account/providers", { json: { provider: "github", account: "12345" } }), signedInOnly(400)),
    },
    [route("GET", "/auth/sessions")]: { cache, rule: "Each signed-in user lists their own sessions.", cases: single(at("/auth/sessions"), signedInOnly(200)) },
    [route("DELETE", "/auth/sessions")]: {
      cache,
      rule: "Only the owner of a session ends it; for anyone else its number is not a choice.",
      cases: [{ description: "the owner's other session", request: (resources) => at("/auth/sessions", { json: { sessions: [resources.ownerOtherSessionNumber] } })(), expected: ownerSignedInOthersAndAnonymous(200, 400, 401) }],
    },
    [route("GET", "/account/authenticators")]: { cache, rule: "Each signed-in user lists their own authenticators.", cases: single(at("/account/authenticators"), signedInOnly(200)) },
    [route("POST", "/auth/2fa/authenticate")]: { cache, rule: "No second-factor stage is pending in any session of the world (allauth: 401).", cases: single(at("/auth/2fa/authenticate", { json: { code: "123456" } }), everyone(401)) },
    [route("POST", "/auth/2fa/reauthenticate")]: { cache, rule: "Only a signed-in user reauthenticates; nobody has a second factor.", cases: single(at("/auth/2fa/reauthenticate", { json: { code: "123456" } }), signedInOnly(400)) },
    [route("GET", "/account/authenticators/totp")]: { cache, rule: "Only a signed-in user sets up TOTP (404 with a new secret: not active yet).", cases: single(at("/account/authenticators/totp"), signedInOnly(404)) },
    [route("POST", "/account/authenticators/totp")]: { cache, rule: "Only a signed-in user activates TOTP; a wrong code is refused.", cases: single(at("/account/authenticators/totp", { json: { code: "123456" } }), signedInOnly(400)) },
    [route("DELETE", "/account/authenticators/totp")]: { cache, rule: "Only a signed-in user deactivates TOTP; nobody has it.", cases: single(at("/account/authenticators/totp"), signedInOnly(404)) },
    [route("GET", "/account/authenticators/recovery-codes")]: { cache, rule: "Only a signed-in user reads recovery codes; nobody has them.", cases: single(at("/account/authenticators/recovery-codes"), signedInOnly(404)) },
    [route("POST", "/account/authenticators/recovery-codes")]: { cache, rule: "Only a signed-in user regenerates recovery codes; nobody has a factor to back up.", cases: single(at("/account/authenticators/recovery-codes", { json: {} }), signedInOnly(400)) },
    [route("GET", "/account/authenticators/webauthn")]: { cache, rule: "Only a signed-in user starts adding a security key.", cases: single(at("/account/authenticators/webauthn"), signedInOnly(200)) },
    [route("POST", "/account/authenticators/webauthn")]: { cache, rule: "Only a signed-in user adds a security key; an empty credential is refused.", cases: single(at("/account/authenticators/webauthn", { json: { credential: {} } }), signedInOnly(400)) },
    [route("PUT", "/account/authenticators/webauthn")]: { cache, rule: "Only a signed-in user renames their own keys; nobody has one.", cases: single(at("/account/authenticators/webauthn", { json: { id: 1, name: "Yubikey" } }), signedInOnly(400)) },
    [route("DELETE", "/account/authenticators/webauthn")]: { cache, rule: "Only a signed-in user deletes their own keys; nobody has one.", cases: single(at("/account/authenticators/webauthn", { json: { authenticators: [1] } }), signedInOnly(400)) },
    [route("GET", "/auth/webauthn/authenticate")]: { cache, rule: "No second-factor stage is pending in any session of the world (allauth: 401).", cases: single(at("/auth/webauthn/authenticate"), everyone(401)) },
    [route("POST", "/auth/webauthn/authenticate")]: {
      cache,
      rule: "No second-factor stage is pending in any session of the world (allauth: 401).",
      cases: single(at("/auth/webauthn/authenticate", { json: { credential: {} } }), everyone(401)),
    },
    [route("GET", "/auth/webauthn/reauthenticate")]: { cache, rule: "Only a signed-in user reauthenticates with a key.", cases: single(at("/auth/webauthn/reauthenticate"), signedInOnly(200)) },
    [route("POST", "/auth/webauthn/reauthenticate")]: { cache, rule: "Only a signed-in user reauthenticates with a key; an empty credential is refused.", cases: single(at("/auth/webauthn/reauthenticate", { json: { credential: {} } }), signedInOnly(400)) },
    [route("GET", "/auth/webauthn/login")]: { cache, rule: "Anyone may start a passkey login.", cases: single(at("/auth/webauthn/login"), everyone(200)) },
    [route("POST", "/auth/webauthn/login")]: { cache, rule: "An empty passkey assertion is refused; a signed-in session gets 409.", cases: single(at("/auth/webauthn/login", { json: { credential: {} } }), anonymousAndSignedIn(400, 409)) },
    [route("POST", "/auth/webauthn/signup")]: {
      cache,
      rule: "Anyone may start a passkey signup (401: verification pending); a signed-in session gets 409.",
      cases: single(at("/auth/webauthn/signup", { json: { email: "passkey.newcomer@example.ch" } }), anonymousAndSignedIn(401, 409)),
    },
    [route("GET", "/auth/webauthn/signup")]: { cache, rule: "No passkey signup is pending in any session of the world.", cases: single(at("/auth/webauthn/signup"), everyone(409)) },
    [route("PUT", "/auth/webauthn/signup")]: { cache, rule: "No passkey signup is pending in any session of the world.", cases: single(at("/auth/webauthn/signup", { json: { credential: {} } }), everyone(409)) },
  };
  if (client === "browser") {
    expectations[route("POST", "/auth/provider/redirect")] = {
      cache,
      rule: "A form post that always answers a redirect: here to the error page, since no provider of that name is configured.",
      cases: single(at("/auth/provider/redirect", { urlencoded: { provider: "github", callback_url: "/account/provider/callback", process: "connect" } }), everyone(302)),
    };
  }
  return expectations;
}

/**
 * The authorisation matrix: for every route the server registers, the answer each role gets. The matrix test reads
 * the server's route table, so a new route without an entry here fails the suite.
 */
export const routeExpectations: Readonly<Record<string, RouteExpectation>> = {
  ...siteAndApiExpectations,
  ...identityExpectations("browser"),
  ...identityExpectations("app"),
};
